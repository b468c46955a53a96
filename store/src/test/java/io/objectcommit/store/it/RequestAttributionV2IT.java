package io.objectcommit.store.it;

/** The attribution header on the SDK v2 binding. */
class RequestAttributionV2IT extends RequestAttributionIT {

  @Override
  Sdk sdk() {
    return Sdk.V2;
  }
}
