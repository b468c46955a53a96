package io.objectcommit.readcache;

import io.objectcommit.store.ObjectInfo;
import java.util.Objects;

/**
 * One version of one object: bucket, key, ETag and length. Every cached byte belongs to exactly one identity; a
 * replaced object has another ETag, so its blocks are other blocks and the old ones are never served for it.
 */
public final class ObjectIdentity {

  private final String bucket;
  private final String key;
  private final String etag;
  private final long length;

  public ObjectIdentity(String bucket, String key, String etag, long length) {
    this.bucket = Objects.requireNonNull(bucket, "bucket");
    this.key = Objects.requireNonNull(key, "key");
    this.etag = Objects.requireNonNull(etag, "etag");
    if (etag.isEmpty()) {
      throw new IllegalArgumentException("s3://" + bucket + "/" + key + ": an identity needs an ETag");
    }
    if (length < 0) {
      throw new IllegalArgumentException("s3://" + bucket + "/" + key + ": negative length " + length);
    }
    this.length = length;
  }

  /** The identity of what a HEAD (or a listing) answered for {@code bucket}. */
  public static ObjectIdentity of(String bucket, ObjectInfo info) {
    return new ObjectIdentity(bucket, info.key(), info.etag(), info.size());
  }

  public String bucket() {
    return bucket;
  }

  public String key() {
    return key;
  }

  public String etag() {
    return etag;
  }

  public long length() {
    return length;
  }

  /** {@code s3://bucket/key}, for messages. */
  public String path() {
    return "s3://" + bucket + "/" + key;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof ObjectIdentity)) {
      return false;
    }
    ObjectIdentity other = (ObjectIdentity) o;
    return length == other.length && bucket.equals(other.bucket) && key.equals(other.key)
        && etag.equals(other.etag);
  }

  @Override
  public int hashCode() {
    return Objects.hash(bucket, key, etag, length);
  }

  @Override
  public String toString() {
    return path() + " (ETag " + etag + ", " + length + " bytes)";
  }
}
