package io.objectcommit.codecs;

/**
 * The settings of the text codecs and the names users write in their configuration (docs/user-guide.md, "Compressed
 * text that Spark splits"). Each key is read once, when Hadoop configures a codec instance.
 */
public final class CodecConstants {

  private CodecConstants() {
  }

  /** Hadoop's list of codec classes, in which the BGZF codec is registered: {@value}. */
  public static final String HADOOP_CODECS = "io.compression.codecs";

  /**
   * The BGZF codec's class, for {@link #HADOOP_CODECS} and for the {@code compression} option of Spark's text, CSV
   * and JSON writers: {@value}.
   */
  public static final String BGZF_CODEC_CLASS = "io.objectcommit.codecs.BgzfCodec";

  /** The file name extension of BGZF files unless {@link #BGZF_CLAIM_GZ} is set: {@value}. */
  public static final String BGZF_EXTENSION = ".bgz";

  /** The extension gzip files have, which the BGZF codec takes over when {@link #BGZF_CLAIM_GZ} is set: {@value}. */
  public static final String GZ_EXTENSION = ".gz";

  /**
   * Whether the BGZF codec also takes {@code .gz} files (reads them, and names the files it writes so): {@value}.
   * A {@code .gz} file that is BGZF is then split at block boundaries; any other gzip file is read whole by one task
   * as Hadoop's {@code GzipCodec} reads it. The codec must be listed in {@link #HADOOP_CODECS} (Hadoop's own codecs
   * come first, so the list's entry wins the extension).
   */
  public static final String BGZF_CLAIM_GZ = "fs.objectcommit.codecs.bgzf.gz-extension";

  /** Default of {@link #BGZF_CLAIM_GZ}: {@value} (only {@code .bgz} files). */
  public static final boolean BGZF_CLAIM_GZ_DEFAULT = false;

  /** The deflate level of the blocks the BGZF codec writes, 0 (stored) to 9: {@value}. */
  public static final String BGZF_LEVEL = "fs.objectcommit.codecs.bgzf.level";

  /** Default of {@link #BGZF_LEVEL}: {@value}, gzip's default. */
  public static final int BGZF_LEVEL_DEFAULT = 6;
}
