package io.objectcommit.it.codecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.codecs.BgzfCodec;
import io.objectcommit.codecs.CodecConstants;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * BGZF text through Spark with the codec registered as users register it ({@code io.compression.codecs}): read
 * split (more than one partition, as many as the compressed size over {@code spark.sql.files.maxPartitionBytes}) by
 * {@code spark.read.text} and {@code sc.textFile}, from local disk and from {@code s3a://}, every line exactly once;
 * written by Spark's text and CSV writers with the {@code compression} option and read back exactly.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class BgzfSparkIT {

  private static final Logger LOG = LoggerFactory.getLogger(BgzfSparkIT.class);

  private static final long MAX_PARTITION_BYTES = 256 * 1024;

  @TempDir
  Path dir;

  private static SparkSession session(S3TestBucket bucket) {
    Map<String, String> hadoop = new HashMap<>(bucket.s3aOptions());
    hadoop.put(CodecConstants.HADOOP_CODECS, CodecConstants.BGZF_CODEC_CLASS);
    return SparkSessions.local("bgzf-it", "local[2]", hadoop,
        Map.of("spark.sql.files.maxPartitionBytes", Long.toString(MAX_PARTITION_BYTES)));
  }

  /** About 3 MB of lines, with some longer than a BGZF block. */
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

  private Path writeBgzf(String name, byte[] content) throws IOException {
    Path file = dir.resolve(name);
    try (OutputStream out = new BgzfCodec().createOutputStream(Files.newOutputStream(file))) {
      out.write(content);
    }
    return file;
  }

  /** The file's lines as java.util.zip reads it, sorted (Spark gives no order across partitions). */
  private static List<String> expectedLines(Path gzipFile) throws IOException {
    try (InputStream in = new GZIPInputStream(Files.newInputStream(gzipFile))) {
      return sortedLines(in.readAllBytes());
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

    JavaRDD<String> rdd = JavaSparkContext.fromSparkContext(spark.sparkContext()).textFile(path, 6);
    assertTrue(rdd.getNumPartitions() >= 6, what + ": partitions of sc.textFile: " + rdd.getNumPartitions());
    assertEquals(expected.size(), rdd.count(), what + ": sc.textFile count");
    assertEquals(expected, sorted(rdd.collect()), what + ": sc.textFile lines");
    LOG.info("{}: {} bytes, {} lines; spark.read.text {} partitions, sc.textFile {} partitions", what, length,
        expected.size(), text.rdd().getNumPartitions(), rdd.getNumPartitions());
  }

  @Test
  void readsBgzfSplitFromLocalDiskAndS3(S3TestBucket bucket) throws Exception {
    Path local = writeBgzf("lines.bgz", text());
    long length = Files.size(local);
    List<String> expected = expectedLines(local);
    try (SparkSession spark = session(bucket)) {
      assertReadSplit(spark, local.toUri().toString(), length, expected, "file://");

      String s3 = bucket.s3a("codecs/lines.bgz");
      FileSystem fs = org.apache.hadoop.fs.FileSystem.get(java.net.URI.create(s3),
          spark.sparkContext().hadoopConfiguration());
      fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(local.toUri()), new org.apache.hadoop.fs.Path(s3));
      assertEquals(length, fs.getFileStatus(new org.apache.hadoop.fs.Path(s3)).getLen());
      assertReadSplit(spark, s3, length, expected, "s3a://");

      // .gz taken over: a BGZF .gz file splits, a plain gzip file is read whole, both exactly
      spark.sparkContext().hadoopConfiguration().setBoolean(CodecConstants.BGZF_CLAIM_GZ, true);
      Path bgzfGz = Files.copy(local, dir.resolve("lines.gz"));
      assertReadSplit(spark, bgzfGz.toUri().toString(), length, expected, "BGZF as .gz");
      Path plain = dir.resolve("plain.gz");
      try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(plain))) {
        out.write(text());
      }
      Dataset<String> plainText = spark.read().text(plain.toUri().toString()).as(Encoders.STRING());
      assertEquals(expected.size(), plainText.count(), "plain gzip under .gz: count");
      assertEquals(expected, sorted(plainText.collectAsList()), "plain gzip under .gz: lines");
    }
  }

  @Test
  void writesBgzfWithTheCompressionOptionAndReadsItBack(S3TestBucket bucket) throws Exception {
    List<String> lines = sortedLines(text());
    try (SparkSession spark = session(bucket)) {
      Dataset<Row> df = spark.createDataset(lines, Encoders.STRING()).toDF("value").repartition(3);
      String textDir = bucket.s3a("codecs/written-text");
      df.write().option("compression", CodecConstants.BGZF_CODEC_CLASS).text(textDir);
      String csvDir = bucket.s3a("codecs/written-csv");
      df.write().option("compression", CodecConstants.BGZF_CODEC_CLASS).csv(csvDir);

      FileSystem fs = FileSystem.get(java.net.URI.create(textDir), spark.sparkContext().hadoopConfiguration());
      List<FileStatus> parts = Arrays.stream(fs.listStatus(new org.apache.hadoop.fs.Path(textDir)))
          .filter(s -> s.getPath().getName().startsWith("part-")).collect(Collectors.toList());
      assertEquals(3, parts.size(), "one file per partition: " + parts);
      List<String> fromFiles = new ArrayList<>();
      for (FileStatus part : parts) {
        assertTrue(part.getPath().getName().endsWith(".bgz"), part.getPath().getName());
        byte[] bytes;
        try (InputStream in = fs.open(part.getPath())) {
          bytes = in.readAllBytes();
        }
        assertEquals('B', bytes[12], "a BGZF header (BC field) in " + part.getPath().getName());
        assertEquals('C', bytes[13], "a BGZF header (BC field) in " + part.getPath().getName());
        try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(bytes))) {
          fromFiles.addAll(sortedLines(in.readAllBytes()));
        }
      }
      assertEquals(lines, sorted(fromFiles), "java.util.zip reads what Spark wrote");

      Dataset<String> back = spark.read().text(textDir).as(Encoders.STRING());
      assertEquals(lines.size(), back.count());
      assertEquals(lines, sorted(back.collectAsList()), "text written as BGZF, read back");
      List<String> csv = spark.read().csv(csvDir).as(Encoders.STRING()).collectAsList();
      assertEquals(lines, sorted(csv), "CSV written as BGZF, read back");
    }
  }
}
