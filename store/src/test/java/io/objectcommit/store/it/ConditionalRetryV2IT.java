package io.objectcommit.store.it;

/** The conditional-write retry trap on the SDK v2 binding. */
class ConditionalRetryV2IT extends ConditionalRetryIT {

  @Override
  Sdk sdk() {
    return Sdk.V2;
  }
}
