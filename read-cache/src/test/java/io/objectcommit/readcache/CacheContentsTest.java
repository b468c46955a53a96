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
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ReadCache#contents} and {@link ReadCache#clear}: what {@code objectcommit cache stats|clear} run. */
class CacheContentsTest {

  @TempDir
  Path tmp;

  private InMemoryObjectStore store;
  private Path dir;

  @BeforeEach
  void setUp() {
    store = InMemoryObjectStore.create(BUCKET);
    dir = tmp.resolve("cache");
  }

  private static byte[] read(ReadCache cache, InMemoryObjectStore s, String key) throws Exception {
    try (CachingInputStream in = cache.open(s, key)) {
      return in.readAllBytes();
    }
  }

  @Test
  void contentsAreReadFromDiskAndChangeNothing() throws Exception {
    CacheContents none = ReadCache.contents(options(dir));
    assertFalse(none.exists());
    assertEquals(0, none.blocks());
    assertFalse(Files.exists(dir), "stats creates no directory");

    store.put("t/a", Payload.of(bytes(2 * BLOCK + 10, 1)), WriteCondition.none()); // 3 blocks
    store.put("t/b", Payload.of(bytes(BLOCK, 2)), WriteCondition.none()); // 1 block
    ReadCache cache = ReadCache.open(options(dir));
    read(cache, store, "t/a");
    read(cache, store, "t/b");
    List<Path> blocks = files(dir, ".blk");
    Instant old = Instant.parse("2026-01-01T00:00:00Z");
    Instant recent = Instant.parse("2026-02-01T00:00:00Z");
    Files.setLastModifiedTime(blocks.get(0), FileTime.from(old));
    for (Path b : blocks.subList(1, blocks.size())) {
      Files.setLastModifiedTime(b, FileTime.from(recent));
    }
    Path temp = blocks.get(1).resolveSibling("x.0a.tmp"); // a fill in flight
    Files.write(temp, new byte[100]);

    CacheContents c = ReadCache.contents(options(dir, BLOCK)); // a bound it is over: stats evicts nothing
    assertTrue(c.exists());
    assertEquals(dir, c.dir());
    assertEquals(4, c.blocks());
    assertEquals(totalSize(blocks), c.blockBytes(), "bytes on disk, headers included");
    assertEquals(1, c.tempFiles());
    assertEquals(100, c.tempBytes());
    assertEquals(old, c.oldestUse().get());
    assertEquals(recent, c.newestUse().get());
    assertEquals(4, files(dir, ".blk").size(), "nothing evicted or deleted");
    assertTrue(Files.exists(temp));

    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-x---"));
    CacheDirectoryException e = assertThrows(CacheDirectoryException.class, () -> ReadCache.contents(options(dir)));
    assertTrue(e.getMessage().contains(ReadCacheConstants.DIR), e.getMessage());
    assertThrows(CacheDirectoryException.class, () -> ReadCache.clear(options(dir)));
    assertEquals(4, files(dir, ".blk").size(), "a refused clear deletes nothing");
  }

  @Test
  void clearDeletesEveryBlockAndDeadFillsButNotFillsInFlight() throws Exception {
    assertFalse(ReadCache.clear(options(dir)).exists(), "nothing to clear, nothing created");
    assertFalse(Files.exists(dir));
    byte[] data = bytes(3 * BLOCK, 3);
    store.put("t/a", Payload.of(data), WriteCondition.none());
    ReadCache cache = ReadCache.open(options(dir));
    read(cache, store, "t/a");
    long bytes = totalSize(files(dir, ".blk"));
    Path sub = files(dir, ".blk").get(0).getParent();
    Path live = Files.write(sub.resolve("live.1.tmp"), new byte[10]);
    Path dead = Files.write(sub.resolve("dead.2.tmp"), new byte[20]);
    Files.setLastModifiedTime(dead, FileTime.fromMillis(System.currentTimeMillis() - TimeUnit.HOURS.toMillis(1)));

    CacheContents removed = ReadCache.clear(options(dir));
    assertEquals(3, removed.blocks());
    assertEquals(bytes, removed.blockBytes());
    assertEquals(1, removed.tempFiles(), "the dead fill's temporary file");
    assertEquals(20, removed.tempBytes());
    assertEquals(List.of(), files(dir, ".blk"));
    assertEquals(List.of(live), files(dir, ".tmp"), "a fill in flight is left to finish");
    assertEquals(0, ReadCache.contents(options(dir)).blocks());

    long before = store.statistics().snapshot().count(OP_GET);
    assertArrayEquals(data, read(cache, store, "t/a"), "a cleared block is fetched again");
    assertEquals(3, store.statistics().snapshot().count(OP_GET) - before);
  }

  /**
   * Readers of four caches (as four JVMs) read one object over and over while the directory is cleared again and
   * again: every read returns the object's bytes, no block file is ever found corrupt (a reader holds the file it
   * reads open: deleting its name takes nothing from under it), and the clears did make them fetch again.
   */
  @Test
  void clearingWhileOthersReadAndFillNeverGivesAReaderPartOfABlock() throws Exception {
    byte[] data = bytes(12 * BLOCK + 77, 4);
    store.put("t/f", Payload.of(data), WriteCondition.none());
    int readers = 4;
    List<ReadCache> caches = new ArrayList<>();
    for (int i = 0; i < readers; i++) {
      caches.add(ReadCache.open(options(dir)));
    }
    ExecutorService pool = Executors.newFixedThreadPool(readers);
    AtomicBoolean stop = new AtomicBoolean();
    List<Future<Integer>> runs = new ArrayList<>();
    long clears = 0;
    long cleared = 0;
    try {
      for (ReadCache c : caches) {
        InMemoryObjectStore s = store.newStore(new Configuration(false));
        runs.add(pool.submit(() -> {
          int n = 0;
          while (!stop.get() || n < 20) {
            assertArrayEquals(data, read(c, s, "t/f"));
            n++;
          }
          return n;
        }));
      }
      long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
      while (System.nanoTime() < end) {
        cleared += ReadCache.clear(options(dir)).blocks();
        clears++;
      }
      stop.set(true);
      for (Future<Integer> r : runs) {
        assertTrue(r.get(60, TimeUnit.SECONDS) >= 20);
      }
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }
    long misses = 0;
    for (ReadCache c : caches) {
      assertEquals(0, c.statistics().checksumFailures(), "no reader ever saw a partial block");
      assertEquals(0, c.statistics().writeFailures(), "no fill was broken by a clear");
      misses += c.statistics().misses();
    }
    assertTrue(cleared > 0 && clears > 1, clears + " clears deleted " + cleared + " blocks");
    assertTrue(misses > 13, "blocks were fetched again after clears: " + misses + " misses");
    assertEquals(0, files(dir, ".tmp").size(), "every fill completed");
  }
}
