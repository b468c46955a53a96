package io.objectcommit.codecs.impl;

import io.objectcommit.codecs.CodecConstants;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;

/** The codecs' settings, parsed once from a Hadoop configuration; a bad value fails naming its key. */
public final class CodecOptions {

  /** The defaults, for a codec Hadoop has not configured (yet). */
  public static final CodecOptions DEFAULTS =
      new CodecOptions(CodecConstants.BGZF_CLAIM_GZ_DEFAULT, CodecConstants.BGZF_LEVEL_DEFAULT,
          CodecConstants.ZSTD_CLAIM_ZST_DEFAULT, CodecConstants.ZSTD_LEVEL_DEFAULT,
          CodecConstants.ZSTD_FRAME_SIZE_DEFAULT, CodecConstants.RECOMPRESS_PART_SIZE_DEFAULT, false,
          CodecConstants.GZIP_INDEX_SPACING_DEFAULT, CodecConstants.BOUNDED_READS_DEFAULT);

  /** The smallest frame size accepted. */
  static final int MIN_ZSTD_FRAME_SIZE = 65536;

  private final boolean claimGz;
  private final int level;
  private final boolean claimZst;
  private final int zstdLevel;
  private final int zstdFrameSize;
  private final int partSize;
  private final boolean useGzipIndex;
  private final int gzipIndexSpacing;
  private final boolean boundedReads;

  private CodecOptions(boolean claimGz, int level, boolean claimZst, int zstdLevel, int zstdFrameSize,
      int partSize, boolean useGzipIndex, int gzipIndexSpacing, boolean boundedReads) {
    this.claimGz = claimGz;
    this.level = level;
    this.claimZst = claimZst;
    this.zstdLevel = zstdLevel;
    this.zstdFrameSize = zstdFrameSize;
    this.partSize = partSize;
    this.useGzipIndex = useGzipIndex;
    this.gzipIndexSpacing = gzipIndexSpacing;
    this.boundedReads = boundedReads;
  }

  public static CodecOptions from(Configuration conf) {
    if (conf == null) {
      return DEFAULTS;
    }
    return new CodecOptions(
        bool(conf, CodecConstants.BGZF_CLAIM_GZ, CodecConstants.BGZF_CLAIM_GZ_DEFAULT),
        integer(conf, CodecConstants.BGZF_LEVEL, CodecConstants.BGZF_LEVEL_DEFAULT, 0, 9),
        bool(conf, CodecConstants.ZSTD_CLAIM_ZST, CodecConstants.ZSTD_CLAIM_ZST_DEFAULT),
        integer(conf, CodecConstants.ZSTD_LEVEL, CodecConstants.ZSTD_LEVEL_DEFAULT, 1, 22),
        integer(conf, CodecConstants.ZSTD_FRAME_SIZE, CodecConstants.ZSTD_FRAME_SIZE_DEFAULT, MIN_ZSTD_FRAME_SIZE,
            CodecConstants.ZSTD_MAX_FRAME_CONTENT),
        integer(conf, CodecConstants.RECOMPRESS_PART_SIZE, CodecConstants.RECOMPRESS_PART_SIZE_DEFAULT,
            CodecConstants.RECOMPRESS_MIN_PART_SIZE, CodecConstants.RECOMPRESS_MAX_PART_SIZE),
        useIndex(conf),
        integer(conf, CodecConstants.GZIP_INDEX_SPACING, CodecConstants.GZIP_INDEX_SPACING_DEFAULT,
            CodecConstants.GZIP_INDEX_MIN_SPACING, CodecConstants.GZIP_INDEX_MAX_SPACING),
        bool(conf, CodecConstants.BOUNDED_READS, CodecConstants.BOUNDED_READS_DEFAULT));
  }

  private static boolean useIndex(Configuration conf) {
    String v = conf.getTrimmed(CodecConstants.GZIP_INDEX, CodecConstants.GZIP_INDEX_DEFAULT).toLowerCase(Locale.ROOT);
    if (!v.equals("use") && !v.equals("ignore")) {
      throw new IllegalArgumentException("bad value of " + CodecConstants.GZIP_INDEX + ": '" + v
          + "' (expected use or ignore)");
    }
    return v.equals("use");
  }

  /** Whether splits of plain gzip files use their index ({@link CodecConstants#GZIP_INDEX}). */
  public boolean useGzipIndex() {
    return useGzipIndex;
  }

  /** The decoded bytes between checkpoints of a gzip index written ({@link CodecConstants#GZIP_INDEX_SPACING}). */
  public int gzipIndexSpacing() {
    return gzipIndexSpacing;
  }

  /** Whether a split in a Spark task reads only its byte range ({@link CodecConstants#BOUNDED_READS}). */
  public boolean boundedReads() {
    return boundedReads;
  }

  /** Whether the BGZF codec takes the {@code .gz} extension. */
  public boolean claimGz() {
    return claimGz;
  }

  /** The deflate level of written blocks. */
  public int level() {
    return level;
  }

  /** Whether the seekable zstd codec takes the {@code .zst} extension. */
  public boolean claimZst() {
    return claimZst;
  }

  /** The zstd level of written frames. */
  public int zstdLevel() {
    return zstdLevel;
  }

  /** The uncompressed bytes per written zstd frame. */
  public int zstdFrameSize() {
    return zstdFrameSize;
  }

  /** The part size of recompressed objects uploaded to S3 ({@link CodecConstants#RECOMPRESS_PART_SIZE}). */
  public int partSize() {
    return partSize;
  }

  private static boolean bool(Configuration conf, String key, boolean def) {
    String v = conf.getTrimmed(key);
    if (v == null || v.isEmpty()) {
      return def;
    }
    switch (v.toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw new IllegalArgumentException("bad value of " + key + ": '" + v + "' (expected true or false)");
    }
  }

  private static int integer(Configuration conf, String key, int def, int min, int max) {
    String v = conf.getTrimmed(key);
    if (v == null || v.isEmpty()) {
      return def;
    }
    int n;
    try {
      n = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad value of " + key + ": '" + v + "' (expected an integer from " + min
          + " to " + max + ")", e);
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException("bad value of " + key + ": '" + v + "' (expected an integer from " + min
          + " to " + max + ")");
    }
    return n;
  }
}
