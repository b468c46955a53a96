package io.objectcommit.delta.impl;

import java.net.URI;
import java.util.Objects;
import org.apache.hadoop.fs.Path;

/**
 * A log file's place in a bucket, from the qualified path Delta gives ({@code s3a://bucket/table/_delta_log/
 * 00000000000000000001.json}): the bucket, the object key, and how to turn a listed key back into a path of the
 * same scheme and bucket. Immutable.
 */
public final class LogLocation {

  private final String scheme;
  private final String bucket;
  private final String key;

  private LogLocation(String scheme, String bucket, String key) {
    this.scheme = scheme;
    this.bucket = bucket;
    this.key = key;
  }

  /**
   * The location of a qualified path.
   *
   * @throws IllegalArgumentException if the path has no scheme, no bucket or no key
   */
  public static LogLocation of(Path path) {
    URI uri = path.toUri();
    String bucket = uri.getHost() != null ? uri.getHost() : uri.getAuthority();
    String key = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/+", "");
    if (uri.getScheme() == null || bucket == null || key.isEmpty()) {
      throw new IllegalArgumentException("not a path to an object in a bucket (scheme://bucket/key): " + path);
    }
    return new LogLocation(uri.getScheme(), bucket, key);
  }

  public String bucket() {
    return bucket;
  }

  /** The object key, without a leading '/'. */
  public String key() {
    return key;
  }

  /** The file name: the key's last segment. */
  public String name() {
    return key.substring(key.lastIndexOf('/') + 1);
  }

  /** The key prefix of the file's directory, ending with '/' (empty at the bucket's root). */
  public String parentPrefix() {
    return key.substring(0, key.lastIndexOf('/') + 1);
  }

  /**
   * The key prefix of the table's root where the file is in a {@code _delta_log} directory (the log's parent),
   * else the file's own directory; ends with '/' or is empty.
   */
  public String tablePrefix() {
    String parent = parentPrefix();
    int log = parent.lastIndexOf("_delta_log/");
    return log >= 0 && (log == 0 || parent.charAt(log - 1) == '/') ? parent.substring(0, log) : parent;
  }

  /** A path of this location's scheme and bucket for {@code otherKey} (a key, or a prefix ending with '/'). */
  public Path pathOf(String otherKey) {
    String k = otherKey.endsWith("/") ? otherKey.substring(0, otherKey.length() - 1) : otherKey;
    return new Path(scheme + "://" + bucket + "/" + k);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof LogLocation)) {
      return false;
    }
    LogLocation l = (LogLocation) o;
    return scheme.equals(l.scheme) && bucket.equals(l.bucket) && key.equals(l.key);
  }

  @Override
  public int hashCode() {
    return Objects.hash(scheme, bucket, key);
  }

  @Override
  public String toString() {
    return scheme + "://" + bucket + "/" + key;
  }
}
