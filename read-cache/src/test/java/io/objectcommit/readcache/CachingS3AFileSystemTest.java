package io.objectcommit.readcache;

import static io.objectcommit.readcache.CacheFixture.BLOCK;
import static io.objectcommit.readcache.CacheFixture.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import io.objectcommit.store.testing.InMemoryStoreFactory;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.FileNotFoundException;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.s3a.S3AFileStatus;
import org.apache.hadoop.fs.s3a.S3AFileSystem;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsLogging;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file system Spark is given: S3A's class (for the committers' checks) whose open reads through the cache. No
 * network: S3A is initialized against an address nothing listens on and never asked to send a request; the reads
 * go through the store module, given the in-memory store of the bucket.
 */
class CachingS3AFileSystemTest {

  private static final String BUCKET = "cache-fs-bucket";

  @TempDir
  Path tmp;

  @AfterEach
  void tearDown() {
    InMemoryObjectStore.unregister(BUCKET);
  }

  private FileSystem fileSystem(Path dir) throws Exception {
    Configuration conf = new Configuration();
    conf.set("fs.s3a.endpoint", "http://127.0.0.1:9");
    conf.set("fs.s3a.endpoint.region", "us-east-1");
    conf.set("fs.s3a.path.style.access", "true");
    conf.set("fs.s3a.access.key", "test");
    conf.set("fs.s3a.secret.key", "test");
    conf.set(ReadCacheConstants.DIR, dir.toString());
    conf.set(ReadCacheConstants.BLOCK_SIZE, Integer.toString(BLOCK));
    InMemoryStoreFactory.use(conf);
    FileSystem fs = new CachingS3AFileSystem();
    fs.initialize(URI.create("s3a://" + BUCKET + "/"), conf);
    return fs;
  }

  @Test
  void itIsS3aAndItsOpenReadsThroughTheCache() throws Exception {
    InMemoryObjectStore bucket = InMemoryObjectStore.register(BUCKET);
    byte[] v1 = bytes(3 * BLOCK + 5, 7);
    bucket.put("data/part-0.parquet", Payload.of(v1), WriteCondition.none());
    Path dir = tmp.resolve("cache");
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("s3a://" + BUCKET + "/data/part-0.parquet");
    try (FileSystem fs = fileSystem(dir)) {
      assertTrue(fs instanceof S3AFileSystem, "committers test for S3A's class");
      ReadCache cache = ((CachingS3AFileSystem) fs).readCache();
      long misses = cache.statistics().misses();
      try (FSDataInputStream in = fs.open(file)) {
        byte[] got = new byte[v1.length];
        in.readFully(0, got);
        assertArrayEquals(v1, got);
        in.seek(BLOCK + 1);
        assertEquals(v1[BLOCK + 1] & 0xff, in.read());
      }
      assertEquals(4, cache.statistics().misses() - misses, "one fetch per block");
      long hits = cache.statistics().hits();
      try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path("/data/part-0.parquet"))) {
        assertArrayEquals(v1, in.readAllBytes());
      }
      assertEquals(4, cache.statistics().hits() - hits, "a second read: from the cache");

      // An overwrite: a new open reads the new object; an open stream fails rather than mixing.
      byte[] v2 = bytes(3 * BLOCK + 5, 8);
      try (FSDataInputStream old = fs.open(new org.apache.hadoop.fs.Path("/data/part-0.parquet"))) {
        bucket.put("data/part-0.parquet", Payload.of(v2), WriteCondition.none());
        byte[] first = new byte[BLOCK];
        old.readFully(0, first); // cached: the old object's
        try (FSDataInputStream in = fs.open(file)) {
          assertArrayEquals(v2, in.readAllBytes());
        }
      }
      bucket.put("data/part-0.parquet", Payload.of(bytes(3 * BLOCK + 5, 9)), WriteCondition.none());
      try (FSDataInputStream in = fs.open(file)) { // an identity none of whose blocks is cached
        bucket.put("data/part-0.parquet", Payload.of(bytes(3 * BLOCK + 5, 10)), WriteCondition.none());
        assertThrows(ObjectChangedException.class, () -> in.readFully(0, new byte[BLOCK]));
      }
      assertThrows(FileNotFoundException.class, () -> fs.open(new org.apache.hadoop.fs.Path("/data/missing")));
      try (FileSystem again = fileSystem(dir)) {
        assertSame(cache, ((CachingS3AFileSystem) again).readCache(), "one cache per directory in a JVM");
      }
    }
  }

  /**
   * Hadoop's openFile builder (Parquet's way in on the Spark 4 lines): the same caching stream; a file status with
   * the ETag (S3A's, here with the quotes SDK v2 leaves) spares the HEAD and finds the blocks the HEAD's identity
   * cached; a stale status never mixes objects; options are hints, an unknown mandatory one is refused.
   */
  @Test
  void openFileReadsThroughTheCacheAndAStatusWithTheEtagSparesTheHead() throws Exception {
    InMemoryObjectStore bucket = InMemoryObjectStore.register(BUCKET);
    byte[] v1 = bytes(3 * BLOCK + 5, 11);
    ObjectInfo info = bucket.put("data/part-1.parquet", Payload.of(v1), WriteCondition.none());
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("s3a://" + BUCKET + "/data/part-1.parquet");
    try (FileSystem fs = fileSystem(tmp.resolve("cache"))) {
      ReadCache cache = ((CachingS3AFileSystem) fs).readCache();
      InMemoryRequestCounts before = bucket.counts();
      long misses = cache.statistics().misses();
      try (FSDataInputStream in = fs.openFile(file).opt("fs.option.openfile.read.policy", "random").build().get()) {
        assertArrayEquals(v1, in.readAllBytes());
      }
      InMemoryRequestCounts cold = bucket.counts().minus(before);
      assertEquals(4, cache.statistics().misses() - misses, "through the cache: one fetch per block");
      assertEquals(1, cold.of(S3Operation.HEAD), "the identity");
      assertEquals(4, cold.of(S3Operation.GET));
      assertEquals(4, cold.conditional(S3Operation.GET), "pinned to the ETag");

      S3AFileStatus status = new S3AFileStatus(v1.length, info.lastModified(), file, BLOCK, "me",
          "\"" + info.etag() + "\"", null);
      long hits = cache.statistics().hits();
      before = bucket.counts();
      try (FSDataInputStream in = fs.openFile(file).withFileStatus(status)
          .must("fs.option.openfile.read.policy", "sequential").build().get()) {
        assertArrayEquals(v1, in.readAllBytes());
      }
      assertEquals(0, bucket.counts().minus(before).total(), "the status's ETag: no HEAD, every block cached");
      assertEquals(4, cache.statistics().hits() - hits);

      // The status of an object replaced since: the old object's cached blocks, whole, or a failure; never a mix.
      bucket.put("data/part-1.parquet", Payload.of(bytes(3 * BLOCK + 5, 12)), WriteCondition.none());
      try (FSDataInputStream in = fs.openFile(file).withFileStatus(status).build().get()) {
        assertArrayEquals(v1, in.readAllBytes(), "cached blocks of the status's identity");
      }
      ObjectInfo v3 = bucket.put("data/part-1.parquet", Payload.of(bytes(3 * BLOCK + 5, 13)), WriteCondition.none());
      S3AFileStatus stale = new S3AFileStatus(v1.length, v3.lastModified(), file, BLOCK, "me", v3.etag(), null);
      bucket.put("data/part-1.parquet", Payload.of(bytes(3 * BLOCK + 5, 14)), WriteCondition.none());
      try (FSDataInputStream in = fs.openFile(file).withFileStatus(stale).build().get()) {
        assertThrows(ObjectChangedException.class, () -> in.readFully(0, new byte[BLOCK]));
      }

      assertThrows(IllegalArgumentException.class, () -> fs.openFile(file).must("fs.unknown.option", "x").build());
      ExecutionException missing = assertThrows(ExecutionException.class,
          () -> fs.openFile(new org.apache.hadoop.fs.Path("/data/missing")).build().get());
      assertTrue(missing.getCause() instanceof FileNotFoundException, missing.toString());
    }
  }

  /**
   * The split's end given to openFile (as Hadoop 3.3.5+'s readers do) bounds read-ahead; the stream's counters are
   * the FSDataInputStream's IOStatistics.
   */
  @Test
  void openFileWithASplitEndReadsAheadWithinTheSplitAndShowsItsStatistics() throws Exception {
    InMemoryObjectStore bucket = InMemoryObjectStore.register(BUCKET);
    byte[] v1 = bytes(8 * BLOCK, 15);
    bucket.put("data/part-2.parquet", Payload.of(v1), WriteCondition.none());
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("s3a://" + BUCKET + "/data/part-2.parquet");
    try (FileSystem fs = fileSystem(tmp.resolve("cache"))) {
      InMemoryRequestCounts before = bucket.counts();
      FSDataInputStream in = fs.openFile(file).opt(ReadCacheConstants.OPENFILE_SPLIT_END, Long.toString(2L * BLOCK))
          .build().get();
      assertEquals(v1[0] & 0xff, in.read());
      ((CachingInputStream) in.getWrappedStream()).awaitReadAhead();
      assertEquals(2, bucket.counts().minus(before).of(S3Operation.GET), "block 0 and block 1 ahead, not 2 to 5");
      in.readFully(0, new byte[2 * BLOCK]);
      in.close();
      IOStatistics io = in.getIOStatistics();
      assertEquals(2, io.counters().get(StreamStatistics.MISSES), io.toString());
      assertEquals(1, io.counters().get(StreamStatistics.READ_AHEAD_USED), io.toString());
      assertEquals(2L * BLOCK, io.counters().get(StreamStatistics.BYTES_FROM_STORE), io.toString());
      assertTrue(IOStatisticsLogging.ioStatisticsSourceToString(in).contains(StreamStatistics.BYTES_FROM_CACHE));
    }
  }
}
