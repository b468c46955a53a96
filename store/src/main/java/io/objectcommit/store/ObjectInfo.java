package io.objectcommit.store;

import java.util.Objects;

/** What the store says about one object: key, size, ETag (without quotes) and last-modified time. */
public final class ObjectInfo {

  private final String key;
  private final long size;
  private final String etag;
  private final long lastModified;

  public ObjectInfo(String key, long size, String etag, long lastModified) {
    this.key = Objects.requireNonNull(key, "key");
    this.size = size;
    this.etag = etag == null ? null : stripQuotes(etag);
    this.lastModified = lastModified;
  }

  static String stripQuotes(String etag) {
    return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"") ? etag.substring(1, etag.length() - 1)
        : etag;
  }

  public String key() {
    return key;
  }

  /** Size in bytes, or -1 when the store did not say (a write's answer carries no size). */
  public long size() {
    return size;
  }

  /** The ETag without quotes, the token for {@link WriteCondition#ifMatch(String)}; null if the store gave none. */
  public String etag() {
    return etag;
  }

  /** Milliseconds since the epoch, or 0 when the store did not say. */
  public long lastModified() {
    return lastModified;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ObjectInfo)) {
      return false;
    }
    ObjectInfo that = (ObjectInfo) o;
    return key.equals(that.key) && size == that.size && Objects.equals(etag, that.etag)
        && lastModified == that.lastModified;
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, size, etag);
  }

  @Override
  public String toString() {
    return key + " (" + size + " bytes, etag " + etag + ")";
  }
}
