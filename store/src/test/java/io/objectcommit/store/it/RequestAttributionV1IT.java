package io.objectcommit.store.it;

/** The attribution header on the SDK v1 binding. */
class RequestAttributionV1IT extends RequestAttributionIT {

  @Override
  Sdk sdk() {
    return Sdk.V1;
  }
}
