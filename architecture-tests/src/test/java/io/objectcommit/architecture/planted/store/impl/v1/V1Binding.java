package io.objectcommit.architecture.planted.store.impl.v1;

import com.amazonaws.services.s3.AmazonS3;

/** Allowed: the v1 binding uses SDK v1 types. */
public class V1Binding {
  public AmazonS3 client() {
    return null;
  }
}
