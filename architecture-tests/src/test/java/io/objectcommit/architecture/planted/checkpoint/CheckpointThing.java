package io.objectcommit.architecture.planted.checkpoint;

import com.amazonaws.services.s3.AmazonS3;

/** Planted: SDK v1 outside its binding. */
public class CheckpointThing {
  public AmazonS3 client() {
    return null;
  }
}
