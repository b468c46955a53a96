package io.objectcommit.commit;

import org.apache.hadoop.fs.Path;

/**
 * A committer was given an output path it cannot write to: not {@code s3a://bucket/...} (nor s3://, s3n://).
 * Unchecked, like Hadoop's own checks of an output path in a committer's constructor.
 */
public class UnsupportedDestinationException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final transient Path path;

  public UnsupportedDestinationException(Path path, String committer) {
    super("The " + committer + " writes to S3 only (" + Destination.SCHEMES_TEXT + " with a bucket), not to " + path
        + ": write to an s3a://bucket/path destination, or use another committer for this file system");
    this.path = path;
  }

  public Path path() {
    return path;
  }
}
