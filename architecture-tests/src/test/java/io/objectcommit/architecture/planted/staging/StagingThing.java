package io.objectcommit.architecture.planted.staging;

import software.amazon.awssdk.services.s3.S3Client;

/** Planted: SDK v2 outside its binding. */
public class StagingThing {
  public S3Client client() {
    return null;
  }
}
