package io.objectcommit.it.codecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import io.objectcommit.codecs.CodecConstants;
import io.objectcommit.codecs.SeekableZstdCodec;
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
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.util.ReflectionUtils;
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
 * Seekable zstd text through Spark with the codec registered as users register it ({@code io.compression.codecs}):
 * read split (more than one partition, as many as the compressed size over {@code spark.sql.files.maxPartitionBytes})
 * by {@code spark.read.text} and {@code sc.textFile}, from local disk and from {@code s3a://}, every line exactly
 * once; a plain zstd file under the opted-in {@code .zst} read exactly; written by Spark's text and CSV writers with
 * the {@code compression} option and read back exactly.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class ZstdSparkIT {

  private static final Logger LOG = LoggerFactory.getLogger(ZstdSparkIT.class);

  private static final long MAX_PARTITION_BYTES = 256 * 1024;

  @TempDir
  Path dir;

  private static SparkSession session(S3TestBucket bucket) {
    Map<String, String> hadoop = new HashMap<>(bucket.s3aOptions());
    hadoop.put(CodecConstants.HADOOP_CODECS, CodecConstants.ZSTD_CODEC_CLASS);
    return SparkSessions.local("zstd-it", "local[2]", hadoop,
        Map.of("spark.sql.files.maxPartitionBytes", Long.toString(MAX_PARTITION_BYTES)));
  }

  /** About 3 MB of lines, with some longer than a frame of 64 KiB. */
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

  /** Seekable zstd in frames of 64 KiB (the smallest the setting allows), so that the file has many frames. */
  private Path writeSeekable(String name, byte[] content) throws IOException {
    Configuration conf = new Configuration(false);
    conf.setInt(CodecConstants.ZSTD_FRAME_SIZE, 65536);
    Path file = dir.resolve(name);
    try (OutputStream out = ReflectionUtils.newInstance(SeekableZstdCodec.class, conf)
        .createOutputStream(Files.newOutputStream(file))) {
      out.write(content);
    }
    return file;
  }

  /** The file's lines as zstd-jni's stream reads it, sorted (Spark gives no order across partitions). */
  private static List<String> expectedLines(Path zstdFile) throws IOException {
    try (InputStream in = new ZstdInputStream(Files.newInputStream(zstdFile))) {
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

  /** How many lines each partition read. */
  private static List<Integer> linesPerPartition(JavaRDD<String> rdd) {
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
  void readsSeekableZstdSplitFromLocalDiskAndS3(S3TestBucket bucket) throws Exception {
    Path local = writeSeekable("lines.seekable.zst", text());
    long length = Files.size(local);
    List<String> expected = expectedLines(local);
    try (SparkSession spark = session(bucket)) {
      assertReadSplit(spark, local.toUri().toString(), length, expected, "file://");

      String s3 = bucket.s3a("codecs/lines.seekable.zst");
      FileSystem fs = FileSystem.get(java.net.URI.create(s3), spark.sparkContext().hadoopConfiguration());
      fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(local.toUri()), new org.apache.hadoop.fs.Path(s3));
      assertEquals(length, fs.getFileStatus(new org.apache.hadoop.fs.Path(s3)).getLen());
      assertReadSplit(spark, s3, length, expected, "s3a://");

      // .zst taken over: a seekable .zst file splits, a plain (stream-compressed) zstd file is read whole, exactly
      spark.sparkContext().hadoopConfiguration().setBoolean(CodecConstants.ZSTD_CLAIM_ZST, true);
      Path seekableZst = Files.copy(local, dir.resolve("lines.zst"));
      assertReadSplit(spark, seekableZst.toUri().toString(), length, expected, "seekable zstd as .zst");
      Path plain = dir.resolve("plain.zst");
      try (OutputStream out = new ZstdOutputStream(Files.newOutputStream(plain))) {
        out.write(text());
      }
      Dataset<String> plainText = spark.read().text(plain.toUri().toString()).as(Encoders.STRING());
      assertEquals(expected.size(), plainText.count(), "plain zstd under .zst: count");
      assertEquals(expected, sorted(plainText.collectAsList()), "plain zstd under .zst: lines");
      List<Integer> perPartition = linesPerPartition(plainText.javaRDD());
      assertTrue(perPartition.size() > 1, "several partitions: " + perPartition);
      assertEquals(List.of(expected.size()), perPartition.subList(0, 1), "all lines in the first: " + perPartition);
    }
  }

  @Test
  void writesSeekableZstdWithTheCompressionOptionAndReadsItBack(S3TestBucket bucket) throws Exception {
    List<String> lines = sortedLines(text());
    try (SparkSession spark = session(bucket)) {
      Dataset<Row> df = spark.createDataset(lines, Encoders.STRING()).toDF("value").repartition(3);
      String textDir = bucket.s3a("codecs/written-zstd-text");
      df.write().option("compression", CodecConstants.ZSTD_CODEC_CLASS).text(textDir);
      String csvDir = bucket.s3a("codecs/written-zstd-csv");
      df.write().option("compression", CodecConstants.ZSTD_CODEC_CLASS).csv(csvDir);

      FileSystem fs = FileSystem.get(java.net.URI.create(textDir), spark.sparkContext().hadoopConfiguration());
      List<FileStatus> parts = Arrays.stream(fs.listStatus(new org.apache.hadoop.fs.Path(textDir)))
          .filter(s -> s.getPath().getName().startsWith("part-")).collect(Collectors.toList());
      assertEquals(3, parts.size(), "one file per partition: " + parts);
      List<String> fromFiles = new ArrayList<>();
      for (FileStatus part : parts) {
        String name = part.getPath().getName();
        assertTrue(name.endsWith(CodecConstants.ZSTD_EXTENSION), name);
        byte[] bytes;
        try (InputStream in = fs.open(part.getPath())) {
          bytes = in.readAllBytes();
        }
        int n = bytes.length;
        // the seekable format's magic number ends the file: 0x8F92EAB1, little-endian
        assertEquals(0xB1, bytes[n - 4] & 0xff, "seek table footer in " + name);
        assertEquals(0x8F, bytes[n - 1] & 0xff, "seek table footer in " + name);
        try (InputStream in = new ZstdInputStream(new java.io.ByteArrayInputStream(bytes))) {
          fromFiles.addAll(sortedLines(in.readAllBytes()));
        }
      }
      assertEquals(lines, sorted(fromFiles), "zstd-jni reads what Spark wrote");

      Dataset<String> back = spark.read().text(textDir).as(Encoders.STRING());
      assertEquals(lines.size(), back.count());
      assertEquals(lines, sorted(back.collectAsList()), "text written as seekable zstd, read back");
      List<String> csv = spark.read().csv(csvDir).as(Encoders.STRING()).collectAsList();
      assertEquals(lines, sorted(csv), "CSV written as seekable zstd, read back");
    }
  }
}
