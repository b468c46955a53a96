package io.objectcommit.store.it;

/** Every store operation on the SDK v1 binding. */
class S3ObjectStoreV1IT extends S3ObjectStoreIT {

  @Override
  Sdk sdk() {
    return Sdk.V1;
  }
}
