package io.objectcommit.store;

import java.util.Objects;

/** A multipart upload in progress: its key and upload id (and, when listed, when it was initiated). */
public final class MultipartUpload {

  private final String key;
  private final String uploadId;
  private final long initiated;

  public MultipartUpload(String key, String uploadId, long initiated) {
    this.key = Objects.requireNonNull(key, "key");
    this.uploadId = Objects.requireNonNull(uploadId, "uploadId");
    this.initiated = initiated;
  }

  public String key() {
    return key;
  }

  public String uploadId() {
    return uploadId;
  }

  /** Milliseconds since the epoch, 0 when unknown. */
  public long initiated() {
    return initiated;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MultipartUpload && key.equals(((MultipartUpload) o).key)
        && uploadId.equals(((MultipartUpload) o).uploadId);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, uploadId);
  }

  @Override
  public String toString() {
    return "upload " + uploadId + " of " + key;
  }
}
