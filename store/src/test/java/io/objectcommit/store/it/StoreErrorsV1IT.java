package io.objectcommit.store.it;

/** Bad input gets one clear error on the SDK v1 binding. */
class StoreErrorsV1IT extends StoreErrorsIT {

  @Override
  Sdk sdk() {
    return Sdk.V1;
  }
}
