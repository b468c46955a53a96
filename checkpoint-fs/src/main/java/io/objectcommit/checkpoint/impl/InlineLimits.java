package io.objectcommit.checkpoint.impl;

/**
 * Which files of the S3 backend keep their bytes inside their directory's manifest: those up to a size, while the
 * manifest holds at most so many bytes of files (it is rewritten at every change of the directory). Immutable.
 */
final class InlineLimits {

  /** No file inline (the format of version 1). */
  static final InlineLimits NONE = new InlineLimits(0, 0);

  private final long maxFileSize;
  private final long maxPerDirectory;

  InlineLimits(long maxFileSize, long maxPerDirectory) {
    this.maxFileSize = maxFileSize;
    this.maxPerDirectory = maxPerDirectory;
  }

  static InlineLimits of(CheckpointOptions options) {
    return new InlineLimits(options.inlineMaxFileSize(), options.inlineMaxPerDirectory());
  }

  /** Whether a file of this size may be inline at all. */
  boolean allowsFile(long size) {
    return maxFileSize > 0 && size <= maxFileSize && size <= maxPerDirectory;
  }

  /** Whether a manifest holding {@code held} bytes of other files has room for a file of {@code size} bytes. */
  boolean allowsInDirectory(long held, long size) {
    return allowsFile(size) && held + size <= maxPerDirectory;
  }

  @Override
  public String toString() {
    return "files up to " + maxFileSize + " bytes, " + maxPerDirectory + " per directory";
  }
}
