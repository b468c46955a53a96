package io.objectcommit.it.readcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.readcache.CachingS3AFileSystem;
import io.objectcommit.readcache.ReadCache;
import io.objectcommit.readcache.ReadCacheConstants;
import io.objectcommit.readcache.ReadCacheOptions;
import io.objectcommit.readcache.ReadCacheStatistics;
import io.objectcommit.store.config.ConfigReader;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import io.objectcommit.testsupport.proxy.S3Operation;
import io.objectcommit.testsupport.proxy.SeenRequest;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 29's use: one Spark application reads a Parquet table from {@code s3a://} through the read cache, a second,
 * separate application (a new SparkSession on the same cache directory; the cache is on disk only, so what it
 * finds there another JVM would find the same) reads it again without one GET of the data files, paying only the
 * identity checks; after the table's objects are replaced under the same names a third application's sum follows.
 * Every setting but the file system's class and the cache directory is the default. Requests are counted by the
 * fault proxy.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class ReadCacheSparkIT {

  private static final Logger LOG = LoggerFactory.getLogger(ReadCacheSparkIT.class);

  /** Rows of the table: two double columns, about 10 MB of Parquet in two files of two 4 MiB blocks each. */
  private static final long ROWS = 2_500_000;

  @TempDir
  Path cacheDir;

  private String sparkVersion;

  @Test
  void aSecondApplicationReadsFromTheCacheAndAnOverwriteIsSeen(S3TestBucket testBucket) throws Exception {
    String table = testBucket.s3a("readcache/table");
    String tablePrefix = testBucket.key("readcache/table/");
    try (ProxiedBucket bucket = new ProxiedBucket(testBucket)) {
      write(bucket, table, 1);
      List<String> files = dataFiles(testBucket, tablePrefix);
      assertEquals(2, files.size(), files.toString());
      long blocks = 0;
      for (String f : files) {
        long size = testBucket.plain().getObject(testBucket.name(), f).length;
        blocks += (size + ReadCacheConstants.BLOCK_SIZE_DEFAULT - 1) / ReadCacheConstants.BLOCK_SIZE_DEFAULT;
      }
      ReadCacheStatistics statistics = ReadCache.shared(options(bucket)).statistics();

      // Application A: cold. Every block of each data file fetched once, by a GET pinned to its ETag.
      bucket.proxy().resetCounts();
      Map<String, Long> before = statistics.snapshot();
      double[] a = sum(bucket, "A", table);
      Reads readsA = reads(bucket, tablePrefix);
      Map<String, Long> statsA = minus(statistics.snapshot(), before);
      assertEquals(expected(1)[0], a[0]);
      assertEquals(expected(1)[1], a[1]);
      assertEquals(blocks, readsA.ourGets, "one GET per block of the data files: " + readsA);
      assertEquals(0, readsA.otherGets, "no data read bypassed the cache: " + readsA);
      assertEquals(blocks, statsA.get(ReadCacheStatistics.MISSES), statsA.toString());

      // Application B: warm. No GET of a data file at all; only the identity checks (one HEAD per open of ours).
      bucket.proxy().resetCounts();
      before = statistics.snapshot();
      double[] b = sum(bucket, "B", table);
      Reads readsB = reads(bucket, tablePrefix);
      Map<String, Long> statsB = minus(statistics.snapshot(), before);
      assertEquals(a[0], b[0]);
      assertEquals(a[1], b[1]);
      assertEquals(0, readsB.ourGets + readsB.otherGets, "no GET of the data files: " + readsB);
      assertEquals(0, statsB.get(ReadCacheStatistics.MISSES), statsB.toString());
      assertEquals(0, statsB.get(ReadCacheStatistics.BYTES_FROM_STORE), statsB.toString());
      assertTrue(statsB.get(ReadCacheStatistics.HITS) >= blocks, statsB.toString());
      assertEquals(readsA.ourHeads, readsB.ourHeads, "revalidation costs what A's opens cost: " + readsB);
      LOG.info("READCACHE Spark {}: files={} blocks={} A: {} stats {}; B: {} stats {}", sparkVersion, files.size(),
          blocks, readsA, statsA, readsB, statsB);

      // The table's objects replaced under the same names (new bytes, new ETags): application C's sum follows.
      write(bucket, testBucket.s3a("readcache/v2"), 3);
      List<String> v2 = dataFiles(testBucket, testBucket.key("readcache/v2/"));
      assertEquals(files.size(), v2.size(), v2.toString());
      for (int i = 0; i < files.size(); i++) {
        testBucket.plain().putObject(testBucket.name(), files.get(i), testBucket.plain().getObject(testBucket.name(),
            v2.get(i)));
      }
      bucket.proxy().resetCounts();
      double[] c = sum(bucket, "C", table);
      Reads readsC = reads(bucket, tablePrefix);
      assertEquals(expected(3)[0], c[0], "zero stale results");
      assertEquals(expected(3)[1], c[1], "zero stale results");
      assertNotEquals(a[1], c[1]);
      assertTrue(readsC.ourGets > 0, "the new objects fetched: " + readsC);
      LOG.info("READCACHE C after the overwrite: {}", readsC);
    }
  }

  /** What the proxy saw on the data files: GETs by objectcommit (the cache's fills) and by anyone else, our HEADs. */
  private static final class Reads {
    final long ourGets;
    final long otherGets;
    final long ourHeads;

    Reads(long ourGets, long otherGets, long ourHeads) {
      this.ourGets = ourGets;
      this.otherGets = otherGets;
      this.ourHeads = ourHeads;
    }

    @Override
    public String toString() {
      return "GETs by the cache " + ourGets + ", other GETs " + otherGets + ", HEADs by the cache " + ourHeads;
    }
  }

  private static Reads reads(ProxiedBucket bucket, String tablePrefix) {
    long ourGets = 0;
    long otherGets = 0;
    long ourHeads = 0;
    for (SeenRequest r : bucket.proxy().requests()) {
      String key = r.request().key();
      if (key == null || !key.startsWith(tablePrefix) || !key.endsWith(".parquet")) {
        continue;
      }
      if (r.operation() == S3Operation.GET) {
        if (r.fromObjectcommit()) {
          ourGets++;
        } else {
          otherGets++;
        }
      } else if (r.operation() == S3Operation.HEAD && r.fromObjectcommit()) {
        ourHeads++;
      }
    }
    return new Reads(ourGets, otherGets, ourHeads);
  }

  /** The table: {@code a} = id + version (exact in a double), {@code b} = (id % 1000) * 0.25 * version. */
  private static void write(ProxiedBucket bucket, String path, int version) {
    try (SparkSession spark = SparkSessions.local("readcache-write-" + version, bucket.bucket().s3aOptions())) {
      spark.range(0, ROWS, 1, 2)
          .selectExpr("cast(id + " + version + " as double) as a", "cast(id % 1000 as double) * 0.25 * " + version
              + " as b")
          .write().mode("overwrite").parquet(path);
    }
  }

  /** The sums of version {@code v}: both exact in doubles, whatever the order of addition. */
  private static double[] expected(int v) {
    double a = (double) ROWS * (ROWS - 1) / 2 + (double) ROWS * v;
    double perThousand = 999.0 * 1000 / 2 * 0.25 * v;
    double b = perThousand * (ROWS / 1000);
    return new double[] {a, b};
  }

  /** One application: a new SparkSession whose s3a:// is the caching file system; sums both columns; stops. */
  private double[] sum(ProxiedBucket bucket, String app, String table) {
    Map<String, String> hadoop = new LinkedHashMap<>(bucket.s3aOptions());
    hadoop.put("fs.s3a.impl", CachingS3AFileSystem.CLASS_NAME);
    hadoop.put(ReadCacheConstants.DIR, cacheDir.toString());
    try (SparkSession spark = SparkSessions.local("readcache-" + app, hadoop)) {
      sparkVersion = spark.version();
      Row r = spark.read().parquet(table).selectExpr("sum(a)", "sum(b)").first();
      return new double[] {r.getDouble(0), r.getDouble(1)};
    }
  }

  private ReadCacheOptions options(ProxiedBucket bucket) {
    Configuration conf = new Configuration(false);
    conf.set(ReadCacheConstants.DIR, cacheDir.toString());
    return ReadCacheOptions.from(new ConfigReader(conf, bucket.bucket().name()));
  }

  private static List<String> dataFiles(S3TestBucket bucket, String prefix) {
    return bucket.listKeys(prefix.substring(bucket.prefix().length())).stream()
        .filter(k -> k.endsWith(".parquet")).sorted().collect(Collectors.toList());
  }

  private static Map<String, Long> minus(Map<String, Long> now, Map<String, Long> before) {
    Map<String, Long> d = new LinkedHashMap<>();
    now.forEach((k, v) -> d.put(k, v - before.getOrDefault(k, 0L)));
    return d;
  }
}
