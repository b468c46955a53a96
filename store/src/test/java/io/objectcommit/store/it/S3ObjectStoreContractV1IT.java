package io.objectcommit.store.it;

/** The ObjectStore contract suite on the SDK v1 binding. */
class S3ObjectStoreContractV1IT extends S3ObjectStoreContractIT {

  @Override
  Sdk sdk() {
    return Sdk.V1;
  }
}
