package io.objectcommit.readcache;

import static io.objectcommit.readcache.CacheFixture.BLOCK;
import static io.objectcommit.readcache.CacheFixture.BUCKET;
import static io.objectcommit.readcache.CacheFixture.bytes;
import static io.objectcommit.readcache.CacheFixture.options;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_GET;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_HEAD;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.statistics.StoreStatistics;
import io.objectcommit.store.testing.InMemoryObjectStore;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.CleanerUtil;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CachingInputStreamTest {

  @TempDir
  Path tmp;

  private InMemoryObjectStore store;
  private Path dir;

  @BeforeEach
  void setUp() {
    store = InMemoryObjectStore.create(BUCKET);
    dir = tmp.resolve("cache");
  }

  private ObjectInfo put(String key, byte[] data) throws IOException {
    return store.put(key, Payload.of(data), WriteCondition.none());
  }

  private static byte[] readAll(CachingInputStream in) throws IOException {
    return in.readAllBytes();
  }

  private StoreStatistics.Snapshot counts() {
    return store.statistics().snapshot();
  }

  @Test
  void aColdReadIsOneRangedGetPerBlockAndAWarmReadByAnotherProcessNone() throws Exception {
    byte[] data = bytes(5 * BLOCK + 100, 1); // 6 blocks, the last of 100 bytes
    put("t/part-0", data);
    ReadCache first = ReadCache.open(options(dir));
    StoreStatistics.Snapshot before = counts();
    try (CachingInputStream in = first.open(store, "t/part-0")) {
      assertArrayEquals(data, readAll(in));
    }
    StoreStatistics.Snapshot cold = counts().minus(before);
    assertEquals(6, cold.count(OP_GET), "one GET per block");
    assertEquals(1, cold.count(OP_HEAD), "the identity at open");
    assertEquals(data.length, cold.get(OP_GET).bytes, "each byte fetched once");
    assertEquals(6, first.statistics().misses());
    assertEquals(data.length, first.statistics().bytesFromStore());
    assertEquals(0, first.statistics().hits());

    // Another JVM (another Spark application) on the same directory: every block from disk.
    ReadCache second = ReadCache.open(options(dir));
    InMemoryObjectStore other = store.newStore(new Configuration(false));
    try (CachingInputStream in = second.open(other, "t/part-0")) {
      assertArrayEquals(data, readAll(in));
    }
    assertEquals(0, other.statistics().snapshot().count(OP_GET), "warm: no GET");
    assertEquals(1, other.statistics().snapshot().count(OP_HEAD));
    assertEquals(6, second.statistics().hits());
    assertEquals(data.length, second.statistics().bytesFromCache());
    assertEquals(0, second.statistics().misses());

    // With an identity the caller holds (a listing, a file status): no request at all.
    ObjectIdentity id = new ObjectIdentity(BUCKET, "t/part-0", store.head("t/part-0").get().etag(), data.length);
    StoreStatistics.Snapshot beforeKnown = other.statistics().snapshot();
    try (CachingInputStream in = second.open(other, id)) {
      assertArrayEquals(data, readAll(in));
    }
    assertEquals(0, other.statistics().snapshot().minus(beforeKnown).totalRequests());
  }

  @Test
  void aReadAfterAnOverwriteSeesTheNewObject() throws Exception {
    byte[] v1 = bytes(3 * BLOCK, 1);
    byte[] v2 = bytes(3 * BLOCK, 2); // same length: only the ETag tells them apart
    put("t/f", v1);
    ReadCache cache = ReadCache.open(options(dir));
    try (CachingInputStream in = cache.open(store, "t/f")) {
      assertArrayEquals(v1, readAll(in));
    }
    put("t/f", v2);
    StoreStatistics.Snapshot before = counts();
    try (CachingInputStream in = cache.open(store, "t/f")) {
      assertArrayEquals(v2, readAll(in), "never the cached bytes of the replaced object");
    }
    assertEquals(3, counts().minus(before).count(OP_GET), "the new identity's blocks are fetched");
    assertEquals(0, cache.statistics().hits());
  }

  @Test
  void anOverwriteBetweenTwoBlocksOfOneStreamFailsTheNextUncachedBlockNeverMixing() throws Exception {
    byte[] v1 = bytes(3 * BLOCK, 1);
    byte[] v2 = bytes(3 * BLOCK, 2);
    put("t/f", v1);
    ReadCache cache = ReadCache.open(options(dir));
    byte[] got = new byte[3 * BLOCK];
    try (CachingInputStream in = cache.open(store, "t/f")) {
      in.readFully(0, got, 0, BLOCK); // block 0 of v1, now cached
      put("t/f", v2);
      ObjectChangedException e = assertThrows(ObjectChangedException.class, () -> in.readFully(BLOCK, got, BLOCK,
          BLOCK));
      assertEquals(in.identity().etag(), e.expectedEtag());
      assertTrue(e.getMessage().contains("s3://" + BUCKET + "/t/f"), e.getMessage());
      assertArrayEquals(Arrays.copyOf(v1, BLOCK), Arrays.copyOf(got, BLOCK));
      assertArrayEquals(new byte[2 * BLOCK], Arrays.copyOfRange(got, BLOCK, 3 * BLOCK), "nothing of v2 copied");
      // What is cached of the stream's identity is still its own object's bytes, whole.
      byte[] again = new byte[BLOCK];
      in.readFully(0, again);
      assertArrayEquals(Arrays.copyOf(v1, BLOCK), again);
    }
    try (CachingInputStream in = cache.open(store, "t/f")) {
      assertArrayEquals(v2, readAll(in), "a new stream: the new object");
    }
  }

  @Test
  void blocksCachedBeforeAnOverwriteStillServeTheirOwnIdentityWhole() throws Exception {
    byte[] v1 = bytes(2 * BLOCK, 1);
    put("t/f", v1);
    ReadCache cache = ReadCache.open(options(dir));
    try (CachingInputStream warm = cache.open(store, "t/f")) {
      assertArrayEquals(v1, readAll(warm));
    }
    try (CachingInputStream in = cache.open(store, "t/f")) {
      put("t/f", bytes(2 * BLOCK, 2));
      assertArrayEquals(v1, readAll(in), "the stream's identity, all cached: the old object whole");
    }
  }

  @Test
  void seekReadPositionedReadAvailableAndCloseFollowHadoopsContract() throws Exception {
    byte[] data = bytes(2 * BLOCK + 10, 3);
    put("t/f", data);
    ReadCache cache = ReadCache.open(options(dir));
    CachingInputStream in = cache.open(store, "t/f");
    assertEquals(0, in.available(), "nothing buffered before the first read");
    in.seek(BLOCK - 2);
    assertEquals(data[BLOCK - 2] & 0xff, in.read());
    assertEquals(BLOCK - 1, in.getPos());
    assertEquals(1, in.available(), "the rest of the current block");
    byte[] buf = new byte[4];
    assertEquals(4, in.read(buf, 0, 4), "a read crosses into the next block");
    assertArrayEquals(Arrays.copyOfRange(data, BLOCK - 1, BLOCK + 3), buf);
    assertEquals(BLOCK + 3, in.getPos());

    byte[] p = new byte[6];
    in.readFully(2 * BLOCK + 4, p);
    assertArrayEquals(Arrays.copyOfRange(data, 2 * BLOCK + 4, 2 * BLOCK + 10), p);
    assertEquals(BLOCK + 3, in.getPos(), "a positioned read leaves the position");
    assertThrows(EOFException.class, () -> in.readFully(2 * BLOCK + 5, new byte[6]));
    assertEquals(-1, in.read(data.length, new byte[1], 0, 1));

    in.seek(data.length);
    assertEquals(-1, in.read());
    assertEquals(-1, in.read(buf, 0, 4));
    assertEquals(0, in.read(buf, 0, 0));
    assertThrows(EOFException.class, () -> in.seek(data.length + 1));
    assertThrows(EOFException.class, () -> in.seek(-1));
    in.seek(5);
    assertEquals(3, in.skip(3));
    assertEquals(8, in.getPos());
    assertFalse(in.seekToNewSource(0));

    in.close();
    in.close(); // idempotent
    assertThrows(IOException.class, in::read);
    assertThrows(IOException.class, () -> in.seek(0));
    assertThrows(IOException.class, in::available);
  }

  @Test
  void anEmptyObjectNeedsNoGetAndAMissingOneIsNotFound() throws Exception {
    put("t/empty", new byte[0]);
    ReadCache cache = ReadCache.open(options(dir));
    try (CachingInputStream in = cache.open(store, "t/empty")) {
      assertEquals(-1, in.read());
    }
    assertEquals(0, counts().count(OP_GET));
    assertThrows(FileNotFoundException.class, () -> cache.open(store, "t/missing"));
  }

  @Test
  void aDeletedObjectFailsItsNextUncachedBlockAsNotFound() throws Exception {
    put("t/f", bytes(2 * BLOCK, 4));
    ReadCache cache = ReadCache.open(options(dir));
    try (CachingInputStream in = cache.open(store, "t/f")) {
      assertEquals(BLOCK, in.read(new byte[BLOCK], 0, BLOCK));
      store.delete("t/f");
      assertThrows(FileNotFoundException.class, in::read);
    }
  }

  /**
   * A warm block is served from its file mapped into memory, and unmapped as soon as the reader moves on: while a
   * stream reads, its current block is mapped and no block it has left; once closed, none (counted in the process's
   * own map, Linux's {@code /proc/self/maps}).
   */
  @Test
  void aWarmReadKeepsOnlyItsCurrentBlockMappedAndNothingOnceClosed() throws Exception {
    Path maps = Path.of("/proc/self/maps");
    assumeTrue(Files.isReadable(maps) && CleanerUtil.UNMAP_SUPPORTED,
        "a Linux /proc and a JVM that unmaps on request");
    byte[] data = bytes(12 * BLOCK, 9);
    put("t/mapped", data);
    ReadCache first = ReadCache.open(options(dir));
    try (CachingInputStream in = first.open(store, "t/mapped")) {
      assertArrayEquals(data, readAll(in)); // cold: fills the directory
    }
    ReadCache second = ReadCache.open(options(dir));
    byte[] got = new byte[data.length];
    try (CachingInputStream in = second.open(store, "t/mapped")) {
      assertEquals(BLOCK + 10, in.readNBytes(got, 0, BLOCK + 10)); // blocks 0 and 1: 0 released for 1
      assertEquals(1, mappedBlocks(maps), "the current block only");
      int rest = data.length - BLOCK - 10;
      assertEquals(rest, in.readNBytes(got, BLOCK + 10, rest)); // blocks 2 to 11, fetched 4 ahead
      assertEquals(1, mappedBlocks(maps), "the last block, current; the ones before it released");
      byte[] again = new byte[3 * BLOCK];
      in.readFully(2 * BLOCK, again, 0, again.length); // a positioned read: its blocks released after the copy
      assertArrayEquals(Arrays.copyOfRange(data, 2 * BLOCK, 5 * BLOCK), again);
      assertEquals(1, mappedBlocks(maps), "no block kept by the positioned read");
    }
    assertArrayEquals(data, got);
    assertEquals(0, mappedBlocks(maps), "a closed stream keeps no block mapped");
    assertEquals(12 + 3, second.statistics().hits(), "every block from the cache, 3 of them twice");
  }

  private long mappedBlocks(Path maps) throws IOException {
    String real = dir.toRealPath().toString(); // the map names files by their real paths (a symlinked /tmp)
    try (Stream<String> lines = Files.lines(maps)) {
      return lines.filter(l -> l.contains(real) && l.endsWith(".blk")).count();
    }
  }
}
