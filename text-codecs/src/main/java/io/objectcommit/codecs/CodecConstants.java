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

  /**
   * The seekable zstd codec's class, for {@link #HADOOP_CODECS} and for the {@code compression} option of Spark's
   * text, CSV and JSON writers: {@value}.
   */
  public static final String ZSTD_CODEC_CLASS = "io.objectcommit.codecs.SeekableZstdCodec";

  /**
   * The file name extension of seekable zstd files unless {@link #ZSTD_CLAIM_ZST} is set: {@value}. It ends with
   * {@code .zst}, so that zstd's own tools take the files for what they are, and differs from {@code .zst}, which
   * Hadoop gives its {@code ZStandardCodec} (not splittable, and only with a native libhadoop built with zstd).
   */
  public static final String ZSTD_EXTENSION = ".seekable.zst";

  /**
   * The extension zstd files have, which the seekable zstd codec takes over when {@link #ZSTD_CLAIM_ZST} is set:
   * {@value}.
   */
  public static final String ZST_EXTENSION = ".zst";

  /**
   * Whether the seekable zstd codec also takes {@code .zst} files (reads them, and names the files it writes so):
   * {@value}. A {@code .zst} file written in frames that declare their content size is then split at frame
   * boundaries; any other zstd file is read whole by one task. The codec must be listed in {@link #HADOOP_CODECS}.
   */
  public static final String ZSTD_CLAIM_ZST = "fs.objectcommit.codecs.zstd.zst-extension";

  /** Default of {@link #ZSTD_CLAIM_ZST}: {@value} (only {@code .seekable.zst} files). */
  public static final boolean ZSTD_CLAIM_ZST_DEFAULT = false;

  /** The zstd level of the frames the seekable zstd codec writes, 1 to 22: {@value}. */
  public static final String ZSTD_LEVEL = "fs.objectcommit.codecs.zstd.level";

  /** Default of {@link #ZSTD_LEVEL}: {@value}, zstd's default. */
  public static final int ZSTD_LEVEL_DEFAULT = 3;

  /**
   * The uncompressed bytes per frame the seekable zstd codec writes, from 65,536 to {@link #ZSTD_MAX_FRAME_CONTENT}:
   * {@value}. Smaller frames compress a little worse (each frame starts without history); larger ones make each
   * split boundary cost more (the split before a boundary decodes the next split's first frame to finish its last
   * line).
   */
  public static final String ZSTD_FRAME_SIZE = "fs.objectcommit.codecs.zstd.frame-size";

  /** Default of {@link #ZSTD_FRAME_SIZE}: {@value} (1 MiB). */
  public static final int ZSTD_FRAME_SIZE_DEFAULT = 1 << 20;

  /**
   * The largest frame content read split, {@value} bytes (8 MiB): frames are decoded whole in memory. A file whose
   * first frame declares more (or no content size) is read whole by the split that starts at 0, like a plain zstd
   * file; a later frame over the bound fails the read naming its offset.
   */
  public static final int ZSTD_MAX_FRAME_CONTENT = 8 << 20;

  /**
   * The size of the parts in which {@code objectcommit recompress} uploads a recompressed object to S3, in bytes,
   * from 5 MiB (S3's smallest part) to 512 MiB: {@value}. One part is held in memory at a time; an output no larger
   * than one part is written by one PUT, a larger one by a multipart upload (the write condition on its completion).
   */
  public static final String RECOMPRESS_PART_SIZE = "fs.objectcommit.codecs.recompress.part-size";

  /** Default of {@link #RECOMPRESS_PART_SIZE}: {@value} (16 MiB). */
  public static final int RECOMPRESS_PART_SIZE_DEFAULT = 16 << 20;

  /** The smallest {@link #RECOMPRESS_PART_SIZE}: {@value} (5 MiB, S3's smallest part but the last). */
  public static final int RECOMPRESS_MIN_PART_SIZE = 5 << 20;

  /** The largest {@link #RECOMPRESS_PART_SIZE}: {@value} (512 MiB). */
  public static final int RECOMPRESS_MAX_PART_SIZE = 512 << 20;

  /**
   * Whether a split of a plain gzip file (read by the BGZF codec, which takes {@code .gz} only with
   * {@link #BGZF_CLAIM_GZ}) uses the file's index ({@code objectcommit gzip-index}), in Spark: {@code use} or
   * {@code ignore}: {@value}. With {@code use}, every split of an indexed file reads from its first checkpoint and
   * each unit is checked against the index's CRC-32; a file without an index is read whole by its first split, as
   * with {@code ignore}. Create the index before the jobs that read the file start: a job running while it is created
   * can see it in some splits and not in others.
   */
  public static final String GZIP_INDEX = "fs.objectcommit.codecs.gzip.index";

  /** Default of {@link #GZIP_INDEX}: {@value}. */
  public static final String GZIP_INDEX_DEFAULT = "ignore";

  /**
   * The decoded bytes between two checkpoints of a gzip index that {@code objectcommit gzip-index} writes, from
   * 1 MiB to 64 MiB: {@value}. Each checkpoint keeps a window of up to 32 KiB (deflated) in the index; a split reads
   * from its first checkpoint, and a unit is held in memory whole while it is read.
   */
  public static final String GZIP_INDEX_SPACING = "fs.objectcommit.codecs.gzip.index.spacing";

  /** Default of {@link #GZIP_INDEX_SPACING}: {@value} (8 MiB). */
  public static final int GZIP_INDEX_SPACING_DEFAULT = 8 << 20;

  /** The smallest {@link #GZIP_INDEX_SPACING}: {@value} (1 MiB). */
  public static final int GZIP_INDEX_MIN_SPACING = 1 << 20;

  /** The largest {@link #GZIP_INDEX_SPACING}: {@value} (64 MiB). */
  public static final int GZIP_INDEX_MAX_SPACING = 64 << 20;

  /**
   * Whether a split read in a Spark task fetches only the bytes it needs, {@code true} or {@code false}: {@value}.
   * With {@code true}, where the file system's stream takes a read-ahead ({@code s3a://}), each split opens the file
   * once more with the random read policy and asks for its own byte range in one request (plus a few kilobytes at
   * offset 0 for the file's first header, and requests that grow from 64 KiB for a last record beyond the range);
   * with {@code false} the split reads the stream Hadoop opened, whose request on S3A runs to the end of the object
   * and is cut when the split closes it, after the bytes in flight were sent. File systems whose streams take no
   * read-ahead (the local file system) are read as with {@code false}.
   */
  public static final String BOUNDED_READS = "fs.objectcommit.codecs.bounded-reads";

  /** Default of {@link #BOUNDED_READS}: {@value}. */
  public static final boolean BOUNDED_READS_DEFAULT = true;
}
