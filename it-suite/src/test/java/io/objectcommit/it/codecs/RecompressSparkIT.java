package io.objectcommit.it.codecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdInputStream;
import io.objectcommit.codecs.CodecConstants;
import io.objectcommit.codecs.Recompression;
import io.objectcommit.codecs.Recompression.Format;
import io.objectcommit.codecs.Recompression.Options;
import io.objectcommit.codecs.RecompressionResult;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.ObjectStores;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.audit.AuditContext;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code recompress} against a real S3 server through {@code s3a://}: a multi-member gzip object of a few MB turned
 * into seekable zstd beside it and into BGZF in place (a multipart upload completed under {@code If-Match}), both
 * then read by Spark in several partitions with exactly the source's lines.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class RecompressSparkIT {

  private static final long MAX_PARTITION_BYTES = 256 * 1024;

  /** About 7 MB of lines, the last without a newline. */
  private static byte[] text() {
    Random random = new Random(31);
    StringBuilder sb = new StringBuilder();
    for (int n = 0; sb.length() < 7_000_000; n++) {
      if (n > 0) {
        sb.append('\n');
      }
      sb.append(n).append(':');
      int len = random.nextInt(150);
      for (int i = 0; i < len; i++) {
        sb.append((char) ('a' + random.nextInt(26)));
      }
    }
    return sb.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] gzipMembers(byte[] data, int members) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int step = data.length / members;
    for (int m = 0; m < members; m++) {
      int end = m == members - 1 ? data.length : (m + 1) * step;
      ByteArrayOutputStream one = new ByteArrayOutputStream();
      try (GZIPOutputStream out = new GZIPOutputStream(one)) {
        out.write(data, m * step, end - m * step);
      }
      b.write(one.toByteArray());
    }
    return b.toByteArray();
  }

  private static long lines(byte[] data) {
    long n = 0;
    for (byte b : data) {
      if (b == '\n') {
        n++;
      }
    }
    return n + (data.length > 0 && data[data.length - 1] != '\n' ? 1 : 0);
  }

  @Test
  void recompressedObjectsAreReadSplitWithTheSourcesLines(S3TestBucket bucket) throws Exception {
    byte[] text = text();
    long expectedLines = lines(text);
    Configuration conf = bucket.hadoopConfiguration();
    // a part of 5 MiB and stored blocks: the BGZF target (about 7 MB) is a multipart upload
    conf.setInt(CodecConstants.RECOMPRESS_PART_SIZE, CodecConstants.RECOMPRESS_MIN_PART_SIZE);
    conf.setInt(CodecConstants.BGZF_LEVEL, 0);
    String key = bucket.key("recompress/lines.gz");
    URI uri = URI.create(bucket.s3a("recompress/lines.gz"));
    RecompressionResult zstd;
    RecompressionResult bgzf;
    try (ObjectStore store = ObjectStores.open(uri, conf, AuditContext.of(AuditContext.CLI))) {
      store.put(key, Payload.of(gzipMembers(text, 3)), WriteCondition.none());

      zstd = Recompression.recompress(store, key, Options.to(Format.ZSTD), conf);
      bgzf = Recompression.recompress(store, key, Options.to(Format.BGZF).inPlace(true), conf);

      assertEquals(expectedLines, zstd.lines());
      assertEquals(expectedLines, bgzf.lines());
      assertEquals(text.length, bgzf.uncompressedBytes());
      assertEquals(zstd.crc32(), bgzf.crc32());
      assertTrue(bgzf.targetBytes() > CodecConstants.RECOMPRESS_MIN_PART_SIZE, "multipart: " + bgzf);
      try (InputStream in = new ZstdInputStream(new ByteArrayInputStream(
          store.getBytes(bucket.key("recompress/lines.seekable.zst")).data()))) {
        assertArrayEquals(text, in.readAllBytes(), "the zstd target decompresses to the source's bytes");
      }
      try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(store.getBytes(key).data()))) {
        assertArrayEquals(text, in.readAllBytes(), "the BGZF object decompresses to the source's bytes");
      }
    }

    Map<String, String> hadoop = new HashMap<>(bucket.s3aOptions());
    hadoop.put(CodecConstants.HADOOP_CODECS, CodecConstants.BGZF_CODEC_CLASS + "," + CodecConstants.ZSTD_CODEC_CLASS);
    hadoop.put(CodecConstants.BGZF_CLAIM_GZ, "true");
    try (SparkSession spark = SparkSessions.local("recompress-it", "local[2]", hadoop,
        Map.of("spark.sql.files.maxPartitionBytes", Long.toString(MAX_PARTITION_BYTES)))) {
      for (String name : new String[] {"lines.gz", "lines.seekable.zst"}) {
        var df = spark.read().text(bucket.s3a("recompress/" + name));
        int partitions = df.rdd().getNumPartitions();
        assertTrue(partitions > 1, name + ": partitions " + partitions);
        assertEquals(expectedLines, df.count(), name + ": lines read by Spark");
        long nonEmpty = df.javaRDD().mapPartitions(rows -> {
          int n = 0;
          while (rows.hasNext()) {
            rows.next();
            n++;
          }
          return java.util.List.of(n).iterator();
        }).collect().stream().filter(n -> n > 0).count();
        assertTrue(nonEmpty > 1, name + ": lines read by several tasks");
      }
    }
  }
}
