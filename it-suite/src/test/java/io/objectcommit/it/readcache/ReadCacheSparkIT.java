package io.objectcommit.it.readcache;

import static io.objectcommit.it.readcache.ReadCacheTables.blocks;
import static io.objectcommit.it.readcache.ReadCacheTables.dataFiles;
import static io.objectcommit.it.readcache.ReadCacheTables.expected;
import static io.objectcommit.it.readcache.ReadCacheTables.minus;
import static io.objectcommit.it.readcache.ReadCacheTables.options;
import static io.objectcommit.it.readcache.ReadCacheTables.reads;
import static io.objectcommit.it.readcache.ReadCacheTables.record;
import static io.objectcommit.it.readcache.ReadCacheTables.sum;
import static io.objectcommit.it.readcache.ReadCacheTables.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.it.readcache.ReadCacheTables.Reads;
import io.objectcommit.it.readcache.ReadCacheTables.Sums;
import io.objectcommit.readcache.CacheUsage;
import io.objectcommit.readcache.ReadCache;
import io.objectcommit.readcache.ReadCacheConstants;
import io.objectcommit.readcache.ReadCacheStatistics;
import io.objectcommit.readcache.files.ApplicationUsage;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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

  @TempDir
  Path cacheDir;

  @Test
  void aSecondApplicationReadsFromTheCacheAndAnOverwriteIsSeen(S3TestBucket testBucket) throws Exception {
    String table = testBucket.s3a("readcache/table");
    String tablePrefix = testBucket.key("readcache/table/");
    try (ProxiedBucket bucket = new ProxiedBucket(testBucket)) {
      write(bucket, table, 1);
      List<String> files = dataFiles(testBucket, tablePrefix);
      assertEquals(2, files.size(), files.toString());
      long blocks = blocks(testBucket, files, ReadCacheConstants.BLOCK_SIZE_DEFAULT);
      Map<String, String> settings = Map.of(ReadCacheConstants.DIR, cacheDir.toString());
      ReadCache cache = ReadCache.shared(options(bucket, settings));
      ReadCacheStatistics statistics = cache.statistics();

      // Application A: cold. Every block of each data file fetched once, by a GET pinned to its ETag.
      bucket.proxy().resetCounts();
      Map<String, Long> before = statistics.snapshot();
      Sums a = sum(bucket, "A", table, settings);
      Reads readsA = reads(bucket, tablePrefix);
      Map<String, Long> statsA = minus(statistics.snapshot(), before);
      assertEquals(expected(1)[0], a.a);
      assertEquals(expected(1)[1], a.b);
      assertEquals(blocks, readsA.ourGets, "one GET per block of the data files: " + readsA);
      assertEquals(0, readsA.otherGets, "no data read bypassed the cache: " + readsA);
      assertEquals(blocks, statsA.get(ReadCacheStatistics.MISSES), statsA.toString());

      // Application B: warm. No GET of a data file at all; only the identity checks (one HEAD per open of ours).
      bucket.proxy().resetCounts();
      before = statistics.snapshot();
      Sums b = sum(bucket, "B", table, settings);
      Reads readsB = reads(bucket, tablePrefix);
      Map<String, Long> statsB = minus(statistics.snapshot(), before);
      assertEquals(a.a, b.a);
      assertEquals(a.b, b.b);
      assertEquals(0, readsB.ourGets + readsB.otherGets, "no GET of the data files: " + readsB);
      assertEquals(0, statsB.get(ReadCacheStatistics.MISSES), statsB.toString());
      assertEquals(0, statsB.get(ReadCacheStatistics.BYTES_FROM_STORE), statsB.toString());
      assertTrue(statsB.get(ReadCacheStatistics.HITS) >= blocks, statsB.toString());
      assertEquals(readsA.ourHeads, readsB.ourHeads, "revalidation costs what A's opens cost: " + readsB);
      // Each application's record in the cache directory holds what the proxy saw it fetch.
      cache.writeStatistics();
      CacheUsage usage = ReadCache.usage(options(bucket, settings));
      ApplicationUsage recordA = record(usage, a.applicationId);
      ApplicationUsage recordB = record(usage, b.applicationId);
      assertEquals(readsA.ourGets, recordA.misses, recordA.toString());
      assertEquals(statsA.get(ReadCacheStatistics.HITS), recordA.hits, recordA.toString());
      assertEquals(0, recordB.misses, recordB.toString());
      assertEquals(statsB.get(ReadCacheStatistics.HITS), recordB.hits, recordB.toString());
      assertEquals(recordB.hits, recordB.requestsSaved);
      assertEquals(statsA.get(ReadCacheStatistics.HITS) + statsB.get(ReadCacheStatistics.HITS),
          usage.host().orElseThrow().hits);
      LOG.info("READCACHE Spark {}: files={} blocks={} A: {} stats {}; B: {} stats {}", b.sparkVersion, files.size(),
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
      Sums c = sum(bucket, "C", table, settings);
      Reads readsC = reads(bucket, tablePrefix);
      assertEquals(expected(3)[0], c.a, "zero stale results");
      assertEquals(expected(3)[1], c.b, "zero stale results");
      assertNotEquals(a.b, c.b);
      assertTrue(readsC.ourGets > 0, "the new objects fetched: " + readsC);
      LOG.info("READCACHE C after the overwrite: {}", readsC);
    }
  }
}
