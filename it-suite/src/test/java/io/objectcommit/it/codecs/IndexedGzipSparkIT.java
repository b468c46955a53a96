package io.objectcommit.it.codecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.codecs.CodecConstants;
import io.objectcommit.codecs.GzipIndexes;
import io.objectcommit.codecs.files.GzipIndex;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import io.objectcommit.testsupport.proxy.SeenRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A plain gzip object on S3 with its index beside it ({@code objectcommit gzip-index}): Spark's text source and
 * {@code sc.textFile} read it in several tasks, every line once, with {@code fs.objectcommit.codecs.gzip.index=use};
 * with {@code ignore}, and after the object is replaced (its index then names another ETag), the first task reads
 * it whole, exactly.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class IndexedGzipSparkIT {

  private static final Logger LOG = LoggerFactory.getLogger(IndexedGzipSparkIT.class);

  private static final long MAX_PARTITION_BYTES = 256 * 1024;

  private static byte[] text(long seed, int size) {
    Random random = new Random(seed);
    StringBuilder sb = new StringBuilder();
    for (int n = 0; sb.length() < size; n++) {
      sb.append(n).append(':');
      int len = random.nextInt(120);
      for (int i = 0; i < len; i++) {
        sb.append((char) ('a' + random.nextInt(26)));
      }
      sb.append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] gzip(byte[] content) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(content);
    }
    return bytes.toByteArray();
  }

  private static List<String> sortedLines(byte[] content) {
    List<String> lines = new ArrayList<>(Arrays.asList(new String(content, StandardCharsets.UTF_8).split("\n")));
    Collections.sort(lines);
    return lines;
  }

  private static void put(FileSystem fs, Path path, byte[] bytes) throws IOException {
    try (FSDataOutputStream out = fs.create(path, true)) {
      out.write(bytes);
    }
  }

  /**
   * Each split asks S3 for its own units and little more ({@link CodecConstants#BOUNDED_READS}): the file's GETs ask
   * for its bytes and, per split, at most the unit after its end (read whole: it holds the end of the split's last
   * line) and 400 KiB; the index is read once by the JVM's tasks, not once per split.
   */
  @Test
  void splitsAskForTheirOwnUnitsAndTheIndexIsReadOnce(S3TestBucket bucket) throws Exception {
    try (ProxiedBucket proxied = new ProxiedBucket(bucket)) {
      Map<String, String> hadoop = new HashMap<>(proxied.s3aOptions());
      hadoop.put(CodecConstants.HADOOP_CODECS, CodecConstants.BGZF_CODEC_CLASS);
      hadoop.put(CodecConstants.BGZF_CLAIM_GZ, "true");
      hadoop.put(CodecConstants.GZIP_INDEX, "use");
      hadoop.put(CodecConstants.GZIP_INDEX_SPACING, Integer.toString(CodecConstants.GZIP_INDEX_MIN_SPACING));
      try (SparkSession spark = SparkSessions.local("indexed-gzip-ranges-it", "local[2]", hadoop,
          Map.of("spark.sql.files.maxPartitionBytes", Long.toString(4 * MAX_PARTITION_BYTES)))) {
        Configuration conf = spark.sparkContext().hadoopConfiguration();
        byte[] content = text(3, 12_000_000);
        String relative = "ranges/day.gz";
        Path file = new Path(bucket.s3a(relative));
        FileSystem fs = file.getFileSystem(conf);
        put(fs, file, gzip(content));
        long length = fs.getFileStatus(file).getLen();
        GzipIndex index = GzipIndexes.write(file, conf);
        long largestUnit = 0;
        for (int i = 1; i < index.checkpoints.size(); i++) {
          largestUnit = Math.max(largestUnit,
              index.checkpoints.get(i).byteOffset() - index.checkpoints.get(i - 1).byteOffset());
        }
        proxied.proxy().resetCounts();

        Dataset<String> text = spark.read().text(file.toString()).as(Encoders.STRING());
        List<String> read = new ArrayList<>(text.collectAsList());
        Collections.sort(read);
        assertEquals(sortedLines(content), read, "every line once");
        int splits = text.rdd().getNumPartitions();
        assertTrue(splits > 2, "several splits: " + splits);
        List<SeenRequest> gets = SplittableTextSparkScenarios.gets(proxied, bucket.key(relative));
        long requested = gets.stream().mapToLong(r -> r.requestedBytes(length)).sum();
        long indexGets = SplittableTextSparkScenarios.gets(proxied,
            bucket.key("ranges/" + GzipIndexes.indexPath(file).getName())).size();
        LOG.info("indexed gzip on S3, {} bytes in {} splits (units up to {} bytes): {} GETs asked for {} bytes"
            + " ({}x); {} GETs of the index", length, splits, largestUnit, gets.size(), requested,
            String.format("%.3f", (double) requested / length), indexGets);
        if (SplittableTextSparkScenarios.takesReadahead(fs, file)) {
          assertTrue(requested <= length + splits * (largestUnit + 400 * 1024), "the GETs asked for " + requested
              + " bytes of a " + length + "-byte file in " + splits + " splits: "
              + gets.stream().map(SeenRequest::range).collect(Collectors.toList()));
        }
        assertEquals(1, indexGets, "the index is read once by the JVM's tasks");
      }
    }
  }

  @Test
  void aPlainGzipObjectWithItsIndexIsReadBySeveralTasks(S3TestBucket bucket) throws Exception {
    Map<String, String> hadoop = new HashMap<>(bucket.s3aOptions());
    hadoop.put(CodecConstants.HADOOP_CODECS, CodecConstants.BGZF_CODEC_CLASS);
    hadoop.put(CodecConstants.BGZF_CLAIM_GZ, "true");
    hadoop.put(CodecConstants.GZIP_INDEX, "use");
    hadoop.put(CodecConstants.GZIP_INDEX_SPACING, Integer.toString(CodecConstants.GZIP_INDEX_MIN_SPACING));
    try (SparkSession spark = SparkSessions.local("indexed-gzip-it", "local[2]", hadoop,
        Map.of("spark.sql.files.maxPartitionBytes", Long.toString(MAX_PARTITION_BYTES)))) {
      Configuration conf = spark.sparkContext().hadoopConfiguration();
      byte[] content = text(1, 12_000_000);
      Path file = new Path(bucket.s3a("logs/day.gz"));
      FileSystem fs = file.getFileSystem(conf);
      put(fs, file, gzip(content));
      GzipIndex index = GzipIndexes.write(file, conf);
      assertTrue(index.checkpoints.size() >= 8, index.checkpoints.size() + " checkpoints");
      List<String> expected = sortedLines(content);
      String dir = bucket.s3a("logs/");

      Dataset<String> text = spark.read().text(dir).as(Encoders.STRING());
      List<String> read = new ArrayList<>(text.collectAsList());
      Collections.sort(read);
      assertEquals(expected, read, "spark.read.text of the directory (its index is hidden): every line once");
      List<Integer> perPartition = SplittableTextSparkScenarios.linesPerPartition(text.javaRDD());
      assertTrue(perPartition.stream().filter(n -> n > 0).count() >= 4, "lines read by several tasks: "
          + perPartition);

      JavaRDD<String> rdd = JavaSparkContext.fromSparkContext(spark.sparkContext()).textFile(file.toString(), 6);
      List<String> rddLines = new ArrayList<>(rdd.collect());
      Collections.sort(rddLines);
      assertEquals(expected, rddLines, "sc.textFile: every line once");
      assertTrue(SplittableTextSparkScenarios.linesPerPartition(rdd).stream().filter(n -> n > 0).count() >= 4, "sc.textFile: several tasks");

      // the setting ignore: the first task reads the whole file
      conf.set(CodecConstants.GZIP_INDEX, "ignore");
      Dataset<String> ignored = spark.read().text(file.toString()).as(Encoders.STRING());
      assertEquals(expected.size(), ignored.count());
      assertEquals(1L, SplittableTextSparkScenarios.linesPerPartition(ignored.javaRDD()).stream().filter(n -> n > 0).count(), "one task reads");

      // the object replaced: its index names the old ETag and length, so it is not used; the new lines, exactly
      conf.set(CodecConstants.GZIP_INDEX, "use");
      byte[] replaced = text(2, 9_000_000);
      put(fs, file, gzip(replaced));
      Dataset<String> after = spark.read().text(file.toString()).as(Encoders.STRING());
      List<String> afterLines = new ArrayList<>(after.collectAsList());
      Collections.sort(afterLines);
      assertEquals(sortedLines(replaced), afterLines, "the replaced object's lines, read whole");
      assertEquals(1L, SplittableTextSparkScenarios.linesPerPartition(after.javaRDD()).stream().filter(n -> n > 0).count(),
          "a stale index is not used");
    }
  }
}
