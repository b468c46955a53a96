package io.objectcommit.store.it;

/** Bad input gets one clear error on the SDK v2 binding. */
class StoreErrorsV2IT extends StoreErrorsIT {

  @Override
  Sdk sdk() {
    return Sdk.V2;
  }
}
