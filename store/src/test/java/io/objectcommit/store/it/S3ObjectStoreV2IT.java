package io.objectcommit.store.it;

/** Every store operation on the SDK v2 binding. */
class S3ObjectStoreV2IT extends S3ObjectStoreIT {

  @Override
  Sdk sdk() {
    return Sdk.V2;
  }
}
