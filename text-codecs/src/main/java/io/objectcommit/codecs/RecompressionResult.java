package io.objectcommit.codecs;

/**
 * What {@link Recompression} did with one source: its outcome, where it wrote, and the counts that let a user check
 * the result (the CRC-32 and length of the uncompressed stream are those of what the source decompresses to, computed
 * while it was read; lines as Hadoop's line reader counts them).
 */
public final class RecompressionResult {

  /** What happened. */
  public enum Outcome {
    /** The target was written. */
    RECOMPRESSED,
    /** The source is BGZF already and BGZF was asked for: nothing written. */
    ALREADY_BGZF,
    /** A dry run: the source was recognized and the target named, nothing written. */
    DRY_RUN
  }

  private final Outcome outcome;
  private final String source;
  private final String sourceFormat;
  private final String target;
  private final boolean targetExists;
  private final long sourceBytes;
  private final long targetBytes;
  private final long uncompressedBytes;
  private final long lines;
  private final long crc32;
  private final boolean sourceDeleted;

  RecompressionResult(Outcome outcome, String source, String sourceFormat, String target, boolean targetExists,
      long sourceBytes, long targetBytes, long uncompressedBytes, long lines, long crc32, boolean sourceDeleted) {
    this.outcome = outcome;
    this.source = source;
    this.sourceFormat = sourceFormat;
    this.target = target;
    this.targetExists = targetExists;
    this.sourceBytes = sourceBytes;
    this.targetBytes = targetBytes;
    this.uncompressedBytes = uncompressedBytes;
    this.lines = lines;
    this.crc32 = crc32;
    this.sourceDeleted = sourceDeleted;
  }

  public Outcome outcome() {
    return outcome;
  }

  /** The source's path ({@code s3://bucket/key} or {@code file:/...}). */
  public String source() {
    return source;
  }

  /** {@code gzip}, {@code BGZF} or {@code bzip2}. */
  public String sourceFormat() {
    return sourceFormat;
  }

  /** The target's path (the source's own in place). */
  public String target() {
    return target;
  }

  /** Whether the target existed before (a dry run tells it; a write refused it unless overwriting). */
  public boolean targetExists() {
    return targetExists;
  }

  /** The source's compressed size. */
  public long sourceBytes() {
    return sourceBytes;
  }

  /** The target's compressed size; -1 when nothing was written. */
  public long targetBytes() {
    return targetBytes;
  }

  /** The uncompressed length; -1 when the source was not read through. */
  public long uncompressedBytes() {
    return uncompressedBytes;
  }

  /** Lines of the uncompressed stream (newlines, plus a last line without one); -1 when not read through. */
  public long lines() {
    return lines;
  }

  /** CRC-32 of the uncompressed stream; -1 when not read through. */
  public long crc32() {
    return crc32;
  }

  /** Whether the source was deleted ({@code --delete-source}). */
  public boolean sourceDeleted() {
    return sourceDeleted;
  }

  @Override
  public String toString() {
    return outcome + " " + source + " (" + sourceFormat + ", " + sourceBytes + " bytes) -> " + target + " ("
        + targetBytes + " bytes), " + uncompressedBytes + " bytes uncompressed, " + lines + " lines, crc32 "
        + String.format("%08x", crc32);
  }
}
