package io.objectcommit.store.it;

/** The ObjectStore contract suite on the SDK v2 binding. */
class S3ObjectStoreContractV2IT extends S3ObjectStoreContractIT {

  @Override
  Sdk sdk() {
    return Sdk.V2;
  }
}
