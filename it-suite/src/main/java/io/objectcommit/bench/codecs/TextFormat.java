package io.objectcommit.bench.codecs;

import io.objectcommit.codecs.CodecConstants;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A format the benchmark reads, with the file it reads and exactly the Hadoop settings a user gives to read it so
 * (docs/user-guide.md, "Compressed text that Spark splits"). Plain gzip, indexed gzip and {@code splittablegzip}
 * read the same {@code .gz} file: the index beside it is used only under indexed gzip's settings.
 */
public enum TextFormat {
  UNCOMPRESSED("uncompressed", "uncompressed", "lines.txt", Map.of(), null),
  GZIP("gz", "gz (Hadoop GzipCodec)", "lines.gz", Map.of(), Baseline.GZIP),
  BZIP2("bz2", "bz2 (Hadoop BZip2Codec)", "lines.bz2", Map.of(), null),
  BGZF("bgzf", "BGZF", "lines.bgz", Map.of(CodecConstants.HADOOP_CODECS, CodecConstants.BGZF_CODEC_CLASS),
      Baseline.GZIP),
  INDEXED_GZIP("indexed-gzip", "indexed gzip", "lines.gz", Map.of(CodecConstants.HADOOP_CODECS,
      CodecConstants.BGZF_CODEC_CLASS, CodecConstants.BGZF_CLAIM_GZ, "true", CodecConstants.GZIP_INDEX, "use"),
      Baseline.GZIP),
  SEEKABLE_ZSTD("zstd", "seekable zstd", "lines.seekable.zst", Map.of(CodecConstants.HADOOP_CODECS,
      CodecConstants.ZSTD_CODEC_CLASS), Baseline.ZSTD),
  SPLITTABLE_GZIP("splittablegzip", "splittablegzip 1.2 (contender)", "lines.gz", Map.of(
      CodecConstants.HADOOP_CODECS, TextFormat.SPLITTABLE_GZIP_CODEC), Baseline.GZIP);

  /**
   * The contender's codec ({@code nl.basjes.hadoop:splittablegzip}, registered as its README says). Version 1.2: 1.3
   * is not on Maven Central.
   */
  public static final String SPLITTABLE_GZIP_CODEC = "nl.basjes.hadoop.io.compress.SplittableGzipCodec";

  /** How one single-stream decompression of a format's file is measured (the CPU target's yardstick). */
  public enum Baseline {
    /** {@code java.util.zip.GZIPInputStream}, every member (BGZF is gzip members). */
    GZIP,
    /** zstd-jni's {@code ZstdInputStream}, every frame (skippable frames skipped). */
    ZSTD
  }

  private final String key;
  private final String label;
  private final String fileName;
  private final Map<String, String> hadoopSettings;
  private final Baseline baseline;

  TextFormat(String key, String label, String fileName, Map<String, String> hadoopSettings, Baseline baseline) {
    this.key = key;
    this.label = label;
    this.fileName = fileName;
    this.hadoopSettings = hadoopSettings;
    this.baseline = baseline;
  }

  /** The name in settings and JSON. */
  public String key() {
    return key;
  }

  /** The name in the report. */
  public String label() {
    return label;
  }

  /** The file it reads, in the cache directory and under the bucket's prefix. */
  public String fileName() {
    return fileName;
  }

  /** The Hadoop settings ({@code spark.hadoop.*}) a user gives to read the file this way. */
  public Map<String, String> hadoopSettings() {
    return hadoopSettings;
  }

  /**
   * Fails, naming the class, when a codec the format's settings register is not on the class path (Hadoop would
   * only say "Error in configuring object" at the first read, after the files are prepared).
   */
  void requireCodecs() {
    String codecs = hadoopSettings.get(CodecConstants.HADOOP_CODECS);
    if (codecs == null) {
      return;
    }
    for (String name : codecs.split(",")) {
      try {
        Class.forName(name.trim(), false, TextFormat.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(String.format("format %s: codec %s (%s) is not on the class path", key,
            name.trim(), CodecConstants.HADOOP_CODECS), e);
      }
    }
  }

  /** How one single-stream decompression of its file is measured, or null (uncompressed; bz2: no target). */
  public Baseline baseline() {
    return baseline;
  }

  /** Whether the targets are set on it (BGZF, indexed gzip, seekable zstd). */
  public boolean targeted() {
    return this == BGZF || this == INDEXED_GZIP || this == SEEKABLE_ZSTD;
  }

  static List<TextFormat> parseList(String value) {
    List<TextFormat> out = new ArrayList<>();
    for (String s : value.split(",")) {
      String k = s.trim().toLowerCase(Locale.ROOT);
      out.add(Arrays.stream(values()).filter(f -> f.key.equals(k)).findFirst().orElseThrow(
          () -> new IllegalArgumentException("codec benchmark setting formats: '" + s + "' is not one of "
              + Arrays.stream(values()).map(TextFormat::key).toList())));
    }
    return out;
  }
}
