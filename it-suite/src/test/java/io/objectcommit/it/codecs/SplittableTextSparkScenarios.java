package io.objectcommit.it.codecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.codecs.CodecConstants;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.S3Operation;
import io.objectcommit.testsupport.proxy.SeenRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.CanSetReadahead;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splittable compressed text through Spark with the codec registered as users register it
 * ({@code io.compression.codecs}), the scenario every such format meets: read split (more than one partition, as many
 * as the compressed size over {@code spark.sql.files.maxPartitionBytes}, lines read by several tasks) by
 * {@code spark.read.text} and {@code sc.textFile}, from local disk and from {@code s3a://}, every line exactly once;
 * under the plain format's extension, when the user opts in, a splittable file split and a plain file read whole by
 * the first partition, exactly; written by Spark's text and CSV writers with the {@code compression} option, in the
 * format, and read back exactly. A format's IT extends this with the format's hooks.
 */
abstract class SplittableTextSparkScenarios {

  private static final Logger LOG = LoggerFactory.getLogger(SplittableTextSparkScenarios.class);

  private static final long MAX_PARTITION_BYTES = 256 * 1024;

  /** The pieces Spark reads in {@link #splitsOnS3AskForTheirOwnBytes}. */
  private static final long RANGES_PIECE = 512 * 1024;

  /** What a split may ask for beyond its own bytes in {@link #splitsOnS3AskForTheirOwnBytes}. */
  private static final long RANGES_PER_SPLIT = 400 * 1024;

  @TempDir
  Path dir;

  /** The format's name in messages, session and object names ({@code BGZF}, {@code seekable zstd}). */
  abstract String format();

  /** The codec's class name, as users give it in {@code io.compression.codecs} and the {@code compression} option. */
  abstract String codecClass();

  /** The extension the codec reads and writes ({@code .bgz}, {@code .seekable.zst}). */
  abstract String extension();

  /** Writes {@code content} in the format, in units small enough that a file of 3 MB has many. */
  abstract Path writeSplittable(Path file, byte[] content) throws IOException;

  /** The whole content of a file in the format, or in its plain variant, by the format's reference decoder. */
  abstract byte[] decompress(InputStream in) throws IOException;

  /** The setting under which the codec takes the plain format's extension. */
  abstract String claimKey();

  /** The plain format's extension ({@code .gz}, {@code .zst}). */
  abstract String plainExtension();

  /** Writes {@code content} in the plain format, as its usual tool does. */
  abstract void writePlain(Path file, byte[] content) throws IOException;

  /** Fails unless {@code bytes}, a file Spark wrote, has the format's layout (not only the plain format's). */
  abstract void assertLayout(byte[] bytes, String name);

  private String slug() {
    return format().toLowerCase(java.util.Locale.ROOT).replace(' ', '-');
  }

  private SparkSession session(S3TestBucket bucket) {
    Map<String, String> hadoop = new HashMap<>(bucket.s3aOptions());
    hadoop.put(CodecConstants.HADOOP_CODECS, codecClass());
    return SparkSessions.local(slug() + "-it", "local[2]", hadoop,
        Map.of("spark.sql.files.maxPartitionBytes", Long.toString(MAX_PARTITION_BYTES)));
  }

  /** About 3 MB of lines, with some longer than a unit of 64 KiB. */
  private static byte[] text() {
    Random random = new Random(30);
    StringBuilder sb = new StringBuilder();
    for (int n = 0; sb.length() < 3_000_000; n++) {
      int len = n % 997 == 0 ? 70_000 + random.nextInt(30_000) : random.nextInt(150);
      sb.append(n).append(':');
      for (int i = 0; i < len; i++) {
        sb.append((char) ('a' + random.nextInt(26)));
      }
      sb.append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The file's lines as the reference decoder reads it, sorted (Spark gives no order across partitions). */
  private List<String> expectedLines(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return sortedLines(decompress(in));
    }
  }

  private static List<String> sortedLines(byte[] content) {
    String s = new String(content, StandardCharsets.UTF_8);
    List<String> lines = new ArrayList<>(Arrays.asList(s.split("\n", -1)));
    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines.remove(lines.size() - 1);
    }
    Collections.sort(lines);
    return lines;
  }

  private static List<String> sorted(List<String> lines) {
    List<String> copy = new ArrayList<>(lines);
    Collections.sort(copy);
    return copy;
  }

  /** The partitions Spark makes of one file: its length in chunks of maxPartitionBytes (4 MB open cost each). */
  private static int expectedPartitions(long length) {
    return (int) ((length + MAX_PARTITION_BYTES - 1) / MAX_PARTITION_BYTES);
  }

  private static void assertReadSplit(SparkSession spark, String path, long length, List<String> expected,
      String what) {
    Dataset<String> text = spark.read().text(path).as(Encoders.STRING());
    assertEquals(expectedPartitions(length), text.rdd().getNumPartitions(), what + ": partitions of spark.read.text");
    assertTrue(expectedPartitions(length) > 1, what + ": the file spans several partitions");
    assertEquals(expected.size(), text.count(), what + ": spark.read.text count");
    assertEquals(expected, sorted(text.collectAsList()), what + ": spark.read.text lines");
    List<Integer> perPartition = linesPerPartition(text.javaRDD());
    assertTrue(perPartition.stream().filter(n -> n > 0).count() > 1,
        what + ": lines read by several tasks, not all by the first: " + perPartition);

    JavaRDD<String> rdd = JavaSparkContext.fromSparkContext(spark.sparkContext()).textFile(path, 6);
    assertTrue(rdd.getNumPartitions() >= 6, what + ": partitions of sc.textFile: " + rdd.getNumPartitions());
    assertEquals(expected.size(), rdd.count(), what + ": sc.textFile count");
    assertEquals(expected, sorted(rdd.collect()), what + ": sc.textFile lines");
    LOG.info("{}: {} bytes, {} lines; spark.read.text {} partitions, sc.textFile {} partitions", what, length,
        expected.size(), text.rdd().getNumPartitions(), rdd.getNumPartitions());
  }

  /** The GETs of the object {@code key} the proxy answered since its last reset (also for {@link IndexedGzipSparkIT}). */
  static List<SeenRequest> gets(ProxiedBucket proxied, String key) {
    return proxied.proxy().requests().stream()
        .filter(r -> r.operation() == S3Operation.GET && r.request().key().equals(key))
        .collect(Collectors.toList());
  }

  /**
   * Whether S3A's stream on this line takes a read-ahead, so that a split can bound its GETs
   * ({@link CodecConstants#BOUNDED_READS}): the classic stream does; the Analytics Accelerator's (S3A's default from
   * Hadoop 3.5, Spark 4.2) does not, and asks for its own ranges (a small object whole per stream), which is logged,
   * not bounded. Also for {@link IndexedGzipSparkIT}.
   */
  static boolean takesReadahead(FileSystem fs, org.apache.hadoop.fs.Path file) throws IOException {
    try (FSDataInputStream in = fs.open(file)) {
      boolean takes = in.getWrappedStream() instanceof CanSetReadahead;
      if (!takes) {
        LOG.info("{}: S3A's stream {} takes no read-ahead: its GETs are its own, not bounded by the codecs", file,
            in.getWrappedStream().getClass().getName());
      }
      return takes;
    }
  }

  /** How many lines each partition read (also for {@link IndexedGzipSparkIT}). */
  static List<Integer> linesPerPartition(JavaRDD<String> rdd) {
    return rdd.mapPartitions(lines -> {
      int n = 0;
      while (lines.hasNext()) {
        lines.next();
        n++;
      }
      return List.of(n).iterator();
    }).collect();
  }

  @Test
  void readsSplitFromLocalDiskAndS3(S3TestBucket bucket) throws Exception {
    Path local = writeSplittable(dir.resolve("lines" + extension()), text());
    long length = Files.size(local);
    List<String> expected = expectedLines(local);
    try (SparkSession spark = session(bucket)) {
      assertReadSplit(spark, local.toUri().toString(), length, expected, "file://");

      String s3 = bucket.s3a("codecs/lines" + extension());
      FileSystem fs = FileSystem.get(java.net.URI.create(s3), spark.sparkContext().hadoopConfiguration());
      fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(local.toUri()), new org.apache.hadoop.fs.Path(s3));
      assertEquals(length, fs.getFileStatus(new org.apache.hadoop.fs.Path(s3)).getLen());
      assertReadSplit(spark, s3, length, expected, "s3a://");

      // the plain extension taken over: a splittable file under it splits, a plain file is read whole, exactly
      spark.sparkContext().hadoopConfiguration().setBoolean(claimKey(), true);
      Path underPlain = Files.copy(local, dir.resolve("lines" + plainExtension()));
      assertReadSplit(spark, underPlain.toUri().toString(), length, expected, format() + " as " + plainExtension());
      Path plain = dir.resolve("plain" + plainExtension());
      writePlain(plain, text());
      String what = "plain " + plainExtension() + " file";
      Dataset<String> plainText = spark.read().text(plain.toUri().toString()).as(Encoders.STRING());
      assertEquals(expected.size(), plainText.count(), what + ": count");
      assertEquals(expected, sorted(plainText.collectAsList()), what + ": lines");
      List<Integer> perPartition = linesPerPartition(plainText.javaRDD());
      assertTrue(perPartition.size() > 1, what + ": several partitions: " + perPartition);
      assertEquals(List.of(expected.size()), perPartition.subList(0, 1), what + ": all lines in the first: "
          + perPartition);
    }
  }

  /**
   * On S3 each split asks for its own bytes and little more ({@link CodecConstants#BOUNDED_READS}, on by default):
   * the GETs of the file, read in pieces of {@value #RANGES_PIECE} bytes, ask for the file's bytes and at most
   * {@value #RANGES_PER_SPLIT} more per split (the first header, the unit after the split's end). Hadoop's stream
   * would ask each split's GET to run to the end of the object, and the header's too.
   */
  @Test
  void splitsOnS3AskForTheirOwnBytes(S3TestBucket bucket) throws Exception {
    Path local = writeSplittable(dir.resolve("ranges" + extension()), text());
    long length = Files.size(local);
    List<String> expected = expectedLines(local);
    try (ProxiedBucket proxied = new ProxiedBucket(bucket)) {
      Map<String, String> hadoop = new HashMap<>(proxied.s3aOptions());
      hadoop.put(CodecConstants.HADOOP_CODECS, codecClass());
      try (SparkSession spark = SparkSessions.local(slug() + "-ranges-it", "local[2]", hadoop,
          Map.of("spark.sql.files.maxPartitionBytes", Long.toString(RANGES_PIECE)))) {
        String relative = "codecs/ranges" + extension();
        String s3 = bucket.s3a(relative);
        FileSystem fs = FileSystem.get(java.net.URI.create(s3), spark.sparkContext().hadoopConfiguration());
        fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(local.toUri()), new org.apache.hadoop.fs.Path(s3));
        proxied.proxy().resetCounts();

        Dataset<String> text = spark.read().text(s3).as(Encoders.STRING());
        assertEquals(expected, sorted(text.collectAsList()), "the lines, each once");
        int splits = text.rdd().getNumPartitions();
        assertTrue(splits > 2, "several splits: " + splits);
        List<SeenRequest> gets = gets(proxied, bucket.key(relative));
        long requested = gets.stream().mapToLong(r -> r.requestedBytes(length)).sum();
        LOG.info("{} on S3, {} bytes in {} splits: {} GETs asked for {} bytes ({}x)", format(), length, splits,
            gets.size(), requested, String.format("%.3f", (double) requested / length));
        assertTrue(requested >= length, "the whole file is read: " + requested);
        if (takesReadahead(fs, new org.apache.hadoop.fs.Path(s3))) {
          assertTrue(requested <= length + splits * RANGES_PER_SPLIT, "the GETs asked for " + requested
              + " bytes of a " + length + "-byte file in " + splits + " splits: "
              + gets.stream().map(SeenRequest::range).collect(Collectors.toList()));
        }
      }
    }
  }

  @Test
  void writesWithTheCompressionOptionAndReadsItBack(S3TestBucket bucket) throws Exception {
    List<String> lines = sortedLines(text());
    try (SparkSession spark = session(bucket)) {
      Dataset<Row> df = spark.createDataset(lines, Encoders.STRING()).toDF("value").repartition(3);
      String textDir = bucket.s3a("codecs/written-" + slug() + "-text");
      df.write().option("compression", codecClass()).text(textDir);
      String csvDir = bucket.s3a("codecs/written-" + slug() + "-csv");
      df.write().option("compression", codecClass()).csv(csvDir);

      FileSystem fs = FileSystem.get(java.net.URI.create(textDir), spark.sparkContext().hadoopConfiguration());
      List<FileStatus> parts = Arrays.stream(fs.listStatus(new org.apache.hadoop.fs.Path(textDir)))
          .filter(s -> s.getPath().getName().startsWith("part-")).collect(Collectors.toList());
      assertEquals(3, parts.size(), "one file per partition: " + parts);
      List<String> fromFiles = new ArrayList<>();
      for (FileStatus part : parts) {
        String name = part.getPath().getName();
        assertTrue(name.endsWith(extension()), name);
        byte[] bytes;
        try (InputStream in = fs.open(part.getPath())) {
          bytes = in.readAllBytes();
        }
        assertLayout(bytes, name);
        fromFiles.addAll(sortedLines(decompress(new java.io.ByteArrayInputStream(bytes))));
      }
      assertEquals(lines, sorted(fromFiles), "the reference decoder reads what Spark wrote");

      Dataset<String> back = spark.read().text(textDir).as(Encoders.STRING());
      assertEquals(lines.size(), back.count());
      assertEquals(lines, sorted(back.collectAsList()), "text written as " + format() + ", read back");
      List<String> csv = spark.read().csv(csvDir).as(Encoders.STRING()).collectAsList();
      assertEquals(lines, sorted(csv), "CSV written as " + format() + ", read back");
    }
  }
}
