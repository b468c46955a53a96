package io.objectcommit.store.it;

/** The conditional-write retry trap on the SDK v1 binding. */
class ConditionalRetryV1IT extends ConditionalRetryIT {

  @Override
  Sdk sdk() {
    return Sdk.V1;
  }
}
