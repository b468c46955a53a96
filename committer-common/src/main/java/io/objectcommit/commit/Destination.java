package io.objectcommit.commit;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apache.hadoop.fs.Path;

/**
 * The destination of a job on S3: the one rule of both committers. Accepted schemes are {@value #SCHEMES_TEXT}
 * (case-insensitive); the bucket is the URI's authority (as S3A takes it); the key prefix is the path without
 * leading or trailing '/', empty at the bucket's root, else ending with '/'.
 */
public final class Destination {

  /** The schemes a committer accepts, in the order messages list them. */
  public static final List<String> SCHEMES = List.of("s3a", "s3", "s3n");
  static final String SCHEMES_TEXT = "s3a://, s3://, s3n://";

  private final Path path;
  private final String bucket;
  private final String prefix;

  private Destination(Path path, String bucket, String prefix) {
    this.path = path;
    this.bucket = bucket;
    this.prefix = prefix;
  }

  /**
   * The destination of {@code path}.
   *
   * @param committer the committer's name, for the message
   * @throws UnsupportedDestinationException for a path that is not {@code s3a://bucket/...} (or s3://, s3n://)
   */
  public static Destination of(Path path, String committer) {
    Objects.requireNonNull(path, "path");
    URI uri = path.toUri();
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    String bucket = uri.getAuthority();
    if (!SCHEMES.contains(scheme) || bucket == null || bucket.isEmpty()) {
      throw new UnsupportedDestinationException(path, committer);
    }
    String key = uri.getPath() == null ? "" : uri.getPath();
    int from = 0;
    int to = key.length();
    while (from < to && key.charAt(from) == '/') {
      from++;
    }
    while (to > from && key.charAt(to - 1) == '/') {
      to--;
    }
    key = key.substring(from, to);
    return new Destination(path, bucket, key.isEmpty() ? "" : key + "/");
  }

  /** The path as given. */
  public Path path() {
    return path;
  }

  public String bucket() {
    return bucket;
  }

  /** The key prefix: empty (bucket root) or ending with '/'. */
  public String prefix() {
    return prefix;
  }

  /** The key of {@code relative} (no leading '/') under the destination. */
  public String key(String relative) {
    return prefix + relative;
  }

  /** The key of {@code _SUCCESS}. */
  public String successKey() {
    return key(CommitConstants.SUCCESS_FILE);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Destination && ((Destination) o).bucket.equals(bucket) && ((Destination) o).prefix.equals(
        prefix);
  }

  @Override
  public int hashCode() {
    return bucket.hashCode() * 31 + prefix.hashCode();
  }

  /** {@code s3://bucket/prefix}, as messages name destinations. */
  @Override
  public String toString() {
    return "s3://" + bucket + "/" + prefix;
  }
}
