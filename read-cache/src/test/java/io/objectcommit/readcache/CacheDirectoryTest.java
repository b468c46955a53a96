package io.objectcommit.readcache;

import static io.objectcommit.readcache.CacheFixture.BLOCK;
import static io.objectcommit.readcache.CacheFixture.BUCKET;
import static io.objectcommit.readcache.CacheFixture.bytes;
import static io.objectcommit.readcache.CacheFixture.files;
import static io.objectcommit.readcache.CacheFixture.options;
import static io.objectcommit.readcache.CacheFixture.totalSize;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_GET;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.testing.InMemoryObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CacheDirectoryTest {

  @TempDir
  Path tmp;

  private InMemoryObjectStore store;
  private Path dir;

  @BeforeEach
  void setUp() {
    store = InMemoryObjectStore.create(BUCKET);
    dir = tmp.resolve("cache");
  }

  private byte[] readAll(ReadCache cache, String key) throws IOException {
    try (CachingInputStream in = cache.open(store, key)) {
      return in.readAllBytes();
    }
  }

  private long gets() {
    return store.statistics().snapshot().count(OP_GET);
  }

  @Test
  void aCorruptBlockFileIsDeletedAndFetchedAgainNeverServed() throws Exception {
    byte[] data = bytes(2 * BLOCK, 1);
    store.put("t/f", Payload.of(data), WriteCondition.none());
    ReadCache cache = ReadCache.open(options(dir));
    assertArrayEquals(data, readAll(cache, "t/f"));
    List<Path> blocks = files(dir, ".blk");
    assertEquals(2, blocks.size());
    for (Path b : blocks) { // one flipped payload byte in each: the CRC32C must catch it
      byte[] f = Files.readAllBytes(b);
      f[f.length - 7] ^= 0x10;
      Files.write(b, f);
    }
    long before = gets();
    assertArrayEquals(data, readAll(cache, "t/f"), "the store's bytes, not the flipped ones");
    assertEquals(2, gets() - before, "both blocks fetched again");
    assertEquals(2, cache.statistics().checksumFailures());
    assertEquals(0, cache.statistics().hits());
    before = gets();
    assertArrayEquals(data, readAll(cache, "t/f"));
    assertEquals(0, gets() - before, "refilled whole: served from the cache again");

    // A block truncated on disk (a disk error, a copy cut short) fails its length check the same way.
    Path first = files(dir, ".blk").get(0);
    byte[] f = Files.readAllBytes(first);
    Files.write(first, java.util.Arrays.copyOf(f, f.length / 2));
    assertArrayEquals(data, readAll(cache, "t/f"));
    assertEquals(3, cache.statistics().checksumFailures());
  }

  @Test
  void aKilledFillsTemporaryFileIsNeverServedAndIsSweptOnceStale() throws Exception {
    byte[] data = bytes(BLOCK, 2);
    store.put("t/f", Payload.of(data), WriteCondition.none());
    ReadCache cache = ReadCache.open(options(dir));
    assertArrayEquals(data, readAll(cache, "t/f"));
    Path block = files(dir, ".blk").get(0);
    // What a fill killed mid-write leaves: its temporary file, half written, beside the block's name, and no block.
    Path temp = block.resolveSibling(block.getFileName() + ".0d1e2f.tmp");
    byte[] whole = Files.readAllBytes(block);
    Files.write(temp, java.util.Arrays.copyOf(whole, whole.length / 2));
    Files.delete(block);
    long before = gets();
    ReadCache next = ReadCache.open(options(dir)); // a new JVM: its scan keeps a recent temporary file
    assertTrue(Files.exists(temp), "a temporary file younger than a fill may be live");
    assertArrayEquals(data, readAll(next, "t/f"));
    assertEquals(1, gets() - before, "the half-written block was fetched, not served");
    assertEquals(0, next.statistics().hits());

    Files.setLastModifiedTime(temp, FileTime.fromMillis(System.currentTimeMillis() - TimeUnit.HOURS.toMillis(1)));
    next.scan();
    assertFalse(Files.exists(temp), "a stale temporary file is swept");
    assertTrue(Files.exists(block));
  }

  @Test
  void directoriesAndFilesAreTheOwnersOnlyAndAnOpenDirectoryIsRefused() throws Exception {
    store.put("t/f", Payload.of(bytes(BLOCK, 3)), WriteCondition.none());
    ReadCache cache = ReadCache.open(options(dir));
    readAll(cache, "t/f");
    Path block = files(dir, ".blk").get(0);
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("blocks"))));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(block.getParent())));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(block)));

    Path shared = Files.createDirectory(tmp.resolve("shared"));
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwx---"));
    CacheDirectoryException e = assertThrows(CacheDirectoryException.class, () -> ReadCache.open(options(shared)));
    assertTrue(e.getMessage().contains(shared.toString()), e.getMessage());
    assertTrue(e.getMessage().contains(ReadCacheConstants.DIR), e.getMessage());
    assertTrue(e.getMessage().contains("GROUP_WRITE"), e.getMessage());

    Files.setPosixFilePermissions(dir.resolve("blocks"), PosixFilePermissions.fromString("rwxr-xr-x"));
    assertThrows(CacheDirectoryException.class, () -> ReadCache.open(options(dir)), "the blocks directory too");

    Path file = Files.createFile(tmp.resolve("a-file"));
    assertThrows(CacheDirectoryException.class, () -> ReadCache.open(options(file)));
  }

  @Test
  void theSizeBoundHoldsByEvictingTheLeastRecentlyUsedBlocks() throws Exception {
    long bound = 10L * (BLOCK + 200); // room for about ten block files (a header is under 200 bytes here)
    byte[] a = bytes(8 * BLOCK, 4);
    byte[] b = bytes(8 * BLOCK, 5);
    store.put("t/a", Payload.of(a), WriteCondition.none());
    store.put("t/b", Payload.of(b), WriteCondition.none());
    ReadCache cache = ReadCache.open(options(dir, bound));
    assertArrayEquals(a, readAll(cache, "t/a"));
    assertEquals(8, files(dir, ".blk").size());
    // Age a's blocks, each a second apart, then use block 0 of a: it becomes the most recently used.
    long t0 = System.currentTimeMillis() - 100_000;
    List<Path> aBlocks = files(dir, ".blk");
    for (int i = 0; i < aBlocks.size(); i++) {
      Files.setLastModifiedTime(aBlocks.get(i), FileTime.fromMillis(t0 + i * 1000L));
    }
    try (CachingInputStream in = cache.open(store, "t/a")) {
      assertEquals(a[0] & 0xff, in.read());
    }
    assertEquals(1, cache.statistics().hits());

    assertArrayEquals(b, readAll(cache, "t/b"));
    List<Path> left = files(dir, ".blk");
    assertTrue(totalSize(left) <= bound, "within the bound: " + totalSize(left) + " > " + bound);
    assertTrue(cache.statistics().evictions() >= 6, "evicted: " + cache.statistics().evictions());
    assertEquals(cache.statistics().evictions(), 16 - left.size());
    assertTrue(cache.estimatedSize() <= bound);

    // Block 0 of a (touched by its hit) outlived every other block of a.
    long before = gets();
    try (CachingInputStream in = cache.open(store, "t/a")) {
      byte[] first = new byte[BLOCK];
      in.readFully(0, first);
      assertArrayEquals(java.util.Arrays.copyOf(a, BLOCK), first);
    }
    assertEquals(0, gets() - before, "the recently used block is still cached");
    // Whatever was evicted is fetched again: reading the rest is correct and the bound still holds.
    assertArrayEquals(a, readAll(cache, "t/a"));
    assertTrue(totalSize(files(dir, ".blk")) <= bound);

    // A second JVM (its own estimate) that over-fills is brought back within the bound by its own scan.
    ReadCache other = ReadCache.open(options(dir, bound));
    assertArrayEquals(b, readAll(other, "t/b"));
    assertTrue(totalSize(files(dir, ".blk")) <= bound);
  }

  @Test
  void threadsFillingTheSameBlocksAtOnceAllReadTheRightBytes() throws Exception {
    byte[] data = bytes(16 * BLOCK + 33, 6);
    store.put("t/f", Payload.of(data), WriteCondition.none());
    ReadCache shared = ReadCache.open(options(dir));
    ReadCache second = ReadCache.open(options(dir)); // as another JVM's cache on the directory
    int threads = 6;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<byte[]>> reads = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        ReadCache c = i % 2 == 0 ? shared : second;
        InMemoryObjectStore s = store.newStore(new Configuration(false));
        reads.add(pool.submit(() -> {
          start.await();
          try (CachingInputStream in = c.open(s, "t/f")) {
            return in.readAllBytes();
          }
        }));
      }
      start.countDown();
      for (Future<byte[]> r : reads) {
        assertArrayEquals(data, r.get(30, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(17, files(dir, ".blk").size());
    assertEquals(0, files(dir, ".tmp").size(), "every fill renamed or removed its temporary file");
    long before = gets();
    assertArrayEquals(data, readAll(ReadCache.open(options(dir)), "t/f"));
    assertEquals(0, gets() - before, "every surviving block is whole and valid");
  }
}
