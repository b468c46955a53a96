package io.objectcommit.it.readcache;

import static io.objectcommit.it.readcache.ReadCacheTables.blocks;
import static io.objectcommit.it.readcache.ReadCacheTables.dataFiles;
import static io.objectcommit.it.readcache.ReadCacheTables.expected;
import static io.objectcommit.it.readcache.ReadCacheTables.options;
import static io.objectcommit.it.readcache.ReadCacheTables.reads;
import static io.objectcommit.it.readcache.ReadCacheTables.record;
import static io.objectcommit.it.readcache.ReadCacheTables.sum;
import static io.objectcommit.it.readcache.ReadCacheTables.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.it.readcache.ReadCacheTables.Reads;
import io.objectcommit.it.readcache.ReadCacheTables.Sums;
import io.objectcommit.readcache.CacheContents;
import io.objectcommit.readcache.CacheDirectoryException;
import io.objectcommit.readcache.CacheUsage;
import io.objectcommit.readcache.ReadCache;
import io.objectcommit.readcache.ReadCacheConstants;
import io.objectcommit.readcache.ReadCacheOptions;
import io.objectcommit.readcache.files.ApplicationUsage;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read cache's bound and permissions under Spark: a cache directory bounded below the table's size evicts while
 * a second application reads (the sums stay exact, the directory within its bound, the evictions in that
 * application's record); after a Spark read every directory of the cache is 0700 and every file 0600; a directory
 * open to other users is refused with {@link CacheDirectoryException} naming the setting, and nothing is written in
 * it. Every setting but the file system's class, the cache directory and, in the test about it, the bound is the
 * default.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class ReadCacheBoundSparkIT {

  private static final Logger LOG = LoggerFactory.getLogger(ReadCacheBoundSparkIT.class);

  /** Two 4 MiB blocks: below the table's four blocks (about 10 MB), above any one block with its header. */
  private static final long BOUND = 2 * ReadCacheConstants.BLOCK_SIZE_DEFAULT;

  @TempDir
  Path tmp;

  @Test
  void aBoundBelowTheTableEvictsDuringTheSecondApplicationsReadAndTheSumsStayExact(S3TestBucket testBucket)
      throws Exception {
    String table = testBucket.s3a("readcache-bound/table");
    String tablePrefix = testBucket.key("readcache-bound/table/");
    Path dir = tmp.resolve("cache");
    Map<String, String> settings = Map.of(ReadCacheConstants.DIR, dir.toString(), ReadCacheConstants.MAX_SIZE,
        Long.toString(BOUND));
    try (ProxiedBucket bucket = new ProxiedBucket(testBucket)) {
      write(bucket, table, 1);
      List<String> files = dataFiles(testBucket, tablePrefix);
      long blocks = blocks(testBucket, files, ReadCacheConstants.BLOCK_SIZE_DEFAULT);
      ReadCacheOptions options = options(bucket, settings);
      ReadCache cache = ReadCache.shared(options);

      bucket.proxy().resetCounts();
      Sums a = sum(bucket, "A", table, settings);
      Reads readsA = reads(bucket, tablePrefix);
      CacheContents afterA = ReadCache.contents(options);

      bucket.proxy().resetCounts();
      Sums b = sum(bucket, "B", table, settings);
      Reads readsB = reads(bucket, tablePrefix);
      CacheContents afterB = ReadCache.contents(options);

      assertEquals(expected(1)[0], a.a);
      assertEquals(expected(1)[1], a.b);
      assertEquals(expected(1)[0], b.a, "exact while blocks are evicted under the reader");
      assertEquals(expected(1)[1], b.b, "exact while blocks are evicted under the reader");
      assertEquals(blocks, readsA.ourGets, "A: one GET per block: " + readsA);
      assertEquals(0, readsA.otherGets + readsB.otherGets, "no read bypassed the cache");
      assertTrue(readsB.ourGets > 0, "B fetches again what A's reads evicted: " + readsB);
      for (CacheContents c : List.of(afterA, afterB)) {
        assertTrue(c.blockBytes() <= BOUND, "the directory within its bound: " + c);
        assertTrue(c.blocks() >= 1, "the bound holds a block: " + c);
      }

      cache.writeStatistics();
      CacheUsage usage = ReadCache.usage(options);
      ApplicationUsage recordA = record(usage, a.applicationId);
      ApplicationUsage recordB = record(usage, b.applicationId);
      assertEquals(readsA.ourGets, recordA.misses, recordA.toString());
      assertEquals(readsB.ourGets, recordB.misses, recordB.toString());
      assertTrue(recordB.evictions > 0, "B's reads evicted blocks: " + recordB);
      assertEquals(recordA.evictions + recordB.evictions, usage.host().orElseThrow().evictions);
      LOG.info("READCACHE-BOUND Spark {}: bound {} blocks {}; A: {}, {}, after it {}; B: {}, {}, after it {}",
          b.sparkVersion, BOUND, blocks, readsA, recordA, afterA, readsB, recordB, afterB);
    }
  }

  @Test
  void theCacheIsTheUsersAloneAndADirectoryOpenToOthersIsRefused(S3TestBucket testBucket) throws Exception {
    String table = testBucket.s3a("readcache-perm/table");
    Path dir = tmp.resolve("cache");
    Map<String, String> settings = Map.of(ReadCacheConstants.DIR, dir.toString());
    try (ProxiedBucket bucket = new ProxiedBucket(testBucket)) {
      write(bucket, table, 1);
      Sums a = sum(bucket, "A", table, settings);
      assertEquals(expected(1)[0], a.a);
      ReadCache.shared(options(bucket, settings)).writeStatistics();

      List<Path> dirs = new ArrayList<>();
      List<Path> files = new ArrayList<>();
      try (Stream<Path> all = Files.walk(dir)) {
        all.forEach(p -> (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? dirs : files).add(p));
      }
      assertTrue(files.stream().anyMatch(p -> p.toString().endsWith(".blk")), files.toString());
      assertTrue(files.stream().anyMatch(p -> p.toString().endsWith(".json")), files.toString());
      assertEquals(List.of(), notMode(dirs, "rwx------"), "every directory 0700");
      assertEquals(List.of(), notMode(files, "rw-------"), "every file 0600");

      // Opened to the group: refused by cache stats and by an application's file system, naming the setting.
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-x---"));
      CacheDirectoryException stats = assertThrows(CacheDirectoryException.class,
          () -> ReadCache.contents(options(bucket, settings)));
      assertTrue(stats.getMessage().contains(ReadCacheConstants.DIR), stats.getMessage());
      Path open = Files.createDirectory(tmp.resolve("open"), PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rwxrwxr-x")));
      Map<String, String> openSettings = Map.of(ReadCacheConstants.DIR, open.toString());
      Exception e = assertThrows(Exception.class, () -> sum(bucket, "B", table, openSettings));
      CacheDirectoryException refused = causeOf(e);
      assertTrue(refused.getMessage().contains(open.toString())
          && refused.getMessage().contains(ReadCacheConstants.DIR), refused.getMessage());
      try (Stream<Path> inOpen = Files.list(open)) {
        assertEquals(List.of(), inOpen.collect(Collectors.toList()), "nothing written where others may read");
      }
      LOG.info("READCACHE-PERM: {} directories 0700, {} files 0600; refused: {}", dirs.size(), files.size(),
          refused.getMessage());
    }
  }

  private static List<String> notMode(List<Path> paths, String mode) throws IOException {
    List<String> wrong = new ArrayList<>();
    for (Path p : paths) {
      String m = PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
      if (!m.equals(mode)) {
        wrong.add(p + " " + m);
      }
    }
    return wrong;
  }

  private static CacheDirectoryException causeOf(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof CacheDirectoryException) {
        return (CacheDirectoryException) t;
      }
    }
    throw new AssertionError("not refused with a CacheDirectoryException", e);
  }
}
