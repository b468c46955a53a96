package io.objectcommit.readcache;

import static io.objectcommit.readcache.CacheFixture.BLOCK;
import static io.objectcommit.readcache.CacheFixture.BUCKET;
import static io.objectcommit.readcache.CacheFixture.bytes;
import static io.objectcommit.readcache.CacheFixture.options;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.ForwardingObjectStore;
import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read-ahead: blocks fetched in parallel for a read that spans them, and beyond a read only up to the block holding
 * the split's last byte; exact counts of GETs (one per block fetched).
 */
class ReadAheadTest {

  private static final int BLOCKS = 10;

  @TempDir
  Path tmp;

  private InMemoryObjectStore store;
  private byte[] data;

  @BeforeEach
  void setUp() throws IOException {
    store = InMemoryObjectStore.create(BUCKET);
    data = bytes(BLOCKS * BLOCK - 7, 5); // 10 blocks, the last one short
    store.put("t/f", Payload.of(data), WriteCondition.none());
  }

  private long gets() {
    return store.counts().of(S3Operation.GET);
  }

  private CachingInputStream open(int readAhead) throws IOException {
    return ReadCache.open(options(tmp.resolve("cache-" + readAhead), Long.MAX_VALUE, readAhead)).open(store, "t/f");
  }

  @Test
  void withoutASplitEndAStreamFetchesOnlyTheBlocksAReadAsksFor() throws Exception {
    try (CachingInputStream in = open(4)) {
      assertEquals(data[0] & 0xff, in.read());
      in.awaitReadAhead();
      assertEquals(1, gets(), "one byte of block 0: block 0 alone");
      byte[] buf = new byte[3 * BLOCK];
      assertEquals(buf.length, in.read(buf, 0, buf.length)); // bytes 1 to 3 * BLOCK: blocks 0 to 3
      assertArrayEquals(Arrays.copyOfRange(data, 1, 1 + buf.length), buf);
      in.awaitReadAhead();
      assertEquals(4, gets(), "blocks 1 to 3 (1 by the reader, 2 and 3 ahead of it, within the read)");
      assertEquals(Set.of(), in.blocksAhead(), "nothing beyond the read");
      byte[] p = new byte[2 * BLOCK];
      in.readFully(6 * BLOCK, p); // a positioned read of blocks 6 and 7
      in.awaitReadAhead();
      assertEquals(6, gets(), "blocks 6 and 7, not 8");
      assertEquals(3, in.statistics().get(StreamStatistics.READ_AHEAD_USED), "blocks 2, 3 and 7");
    }
  }

  @Test
  void withASplitEndReadAheadStopsAtTheBlockHoldingTheSplitsLastByte() throws Exception {
    try (CachingInputStream in = open(4)) {
      in.setSplitEnd(3L * BLOCK + 10); // the split's last byte is in block 3
      assertEquals(data[0] & 0xff, in.read());
      in.awaitReadAhead();
      assertEquals(Set.of(1L, 2L, 3L), in.blocksAhead(), "up to the split's last block, not 4 blocks");
      assertEquals(4, gets());
      byte[] buf = new byte[4 * BLOCK + 5 - 1];
      assertEquals(buf.length, in.read(buf, 0, buf.length)); // to 4 * BLOCK + 5: the record across the split's end
      assertArrayEquals(Arrays.copyOfRange(data, 1, 1 + buf.length), buf);
      in.awaitReadAhead();
      assertEquals(5, gets(), "block 4 on demand, the read's own; nothing speculative past the split");
      assertEquals(Set.of(), in.blocksAhead());
      Map<String, Long> s = in.statistics();
      assertEquals(5, s.get(StreamStatistics.MISSES));
      assertEquals(4, s.get(StreamStatistics.READ_AHEAD_USED), "1, 2, 3 by the split, 4 by the read spanning it");
      assertEquals(0, s.get(StreamStatistics.READ_AHEAD_UNUSED));
    }
  }

  @Test
  void readAheadKeepsAtMostItsNumberOfBlocksInFlightAndFetchesEachBlockOnce() throws Exception {
    try (CachingInputStream in = open(2)) {
      in.setSplitEnd(data.length);
      assertEquals(data[0] & 0xff, in.read());
      in.awaitReadAhead();
      assertEquals(Set.of(1L, 2L), in.blocksAhead());
      assertEquals(3, gets());
      byte[] rest = new byte[data.length - 1];
      int n = 0;
      while (n < rest.length) {
        n += in.read(rest, n, Math.min(1000, rest.length - n)); // small reads, as a line reader's
      }
      assertArrayEquals(Arrays.copyOfRange(data, 1, data.length), rest);
      assertEquals(BLOCKS, gets(), "each block once");
      assertEquals(BLOCKS - 1, in.statistics().get(StreamStatistics.READ_AHEAD_USED));
    }
    try (CachingInputStream in = open(0)) {
      in.setSplitEnd(data.length);
      assertArrayEquals(data, in.readAllBytes());
      assertEquals(0, in.statistics().get(StreamStatistics.READ_AHEAD_USED), "read-ahead 0: none");
    }
  }

  @Test
  void aReadAcrossBlocksFetchesThemInParallelBoundedByTheReadAhead() throws Exception {
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    ForwardingObjectStore slow = new ForwardingObjectStore(store) {
      @Override
      public InputStream open(String key, long start, long end, String ifMatchEtag) throws IOException {
        peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        try {
          Thread.sleep(200);
          return super.open(key, start, end, ifMatchEtag);
        } catch (InterruptedException e) {
          throw new java.io.InterruptedIOException();
        } finally {
          inFlight.decrementAndGet();
        }
      }
    };
    ReadCache cache = ReadCache.open(options(tmp.resolve("cache"), Long.MAX_VALUE, 3));
    try (CachingInputStream in = cache.open(slow, "t/f")) {
      byte[] buf = new byte[8 * BLOCK];
      in.readFully(0, buf);
      assertArrayEquals(Arrays.copyOf(data, buf.length), buf);
    }
    assertEquals(8, gets());
    assertTrue(peak.get() >= 2 && peak.get() <= 4, "in parallel, at most the block read and 3 ahead: " + peak);
  }

  @Test
  void aBlockFetchedAheadOfAReplacedObjectFailsWhenReachedNeverMixing() throws Exception {
    try (CachingInputStream in = open(2)) {
      in.setSplitEnd(data.length);
      byte[] first = new byte[BLOCK];
      in.readFully(0, first); // a positioned read: block 0 only
      store.put("t/f", Payload.of(bytes(data.length, 6)), WriteCondition.none());
      assertEquals(data[0] & 0xff, in.read()); // block 0, cached: the stream's identity; 1 and 2 fetched ahead
      byte[] rest = new byte[BLOCK];
      assertThrows(ObjectChangedException.class, () -> in.readFully(BLOCK, rest));
      assertThrows(ObjectChangedException.class, () -> in.read(rest, 0, rest.length));
      in.awaitReadAhead();
    }
  }

  @Test
  void theStreamsIoStatisticsSayWhatCameFromTheCacheAndFromTheStore() throws Exception {
    ReadCache cache = ReadCache.open(options(tmp.resolve("cache"), Long.MAX_VALUE, 4));
    try (CachingInputStream in = cache.open(store, "t/f")) {
      in.readFully(0, new byte[3 * BLOCK]);
    }
    try (CachingInputStream in = cache.open(store, "t/f")) {
      assertEquals(data.length, in.readAllBytes().length);
      IOStatistics io = in.getIOStatistics();
      assertEquals(data.length, io.counters().get(StreamStatistics.BYTES_READ));
      assertEquals(3, io.counters().get(StreamStatistics.HITS));
      assertEquals(3, io.counters().get(StreamStatistics.REQUESTS_SAVED));
      assertEquals(3L * BLOCK, io.counters().get(StreamStatistics.BYTES_FROM_CACHE));
      assertEquals(BLOCKS - 3, io.counters().get(StreamStatistics.MISSES));
      assertEquals(data.length - 3L * BLOCK, io.counters().get(StreamStatistics.BYTES_FROM_STORE));
    }
    assertEquals(BLOCKS, gets(), "3 blocks by the first stream, 7 by the second");
  }

  @Test
  void threadsOfOneJvmNeedingTheSameBlockAtOnceSendOneGet() throws Exception {
    CountDownLatch getStarted = new CountDownLatch(1);
    ForwardingObjectStore slow = new ForwardingObjectStore(store) {
      @Override
      public InputStream open(String key, long start, long end, String ifMatchEtag) throws IOException {
        getStarted.countDown();
        try {
          Thread.sleep(1000); // the other thread asks for the block meanwhile
        } catch (InterruptedException e) {
          throw new java.io.InterruptedIOException();
        }
        return super.open(key, start, end, ifMatchEtag);
      }
    };
    ReadCache cache = ReadCache.open(options(tmp.resolve("cache"), Long.MAX_VALUE, 0));
    byte[] first = new byte[100];
    byte[] second = new byte[100];
    Thread t = new Thread(() -> {
      try (CachingInputStream in = cache.open(slow, new ObjectIdentity(BUCKET, "t/f", store.head("t/f").get().etag(),
          data.length))) {
        in.readFully(data.length - 100, first); // a footer
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    t.start();
    assertTrue(getStarted.await(10, java.util.concurrent.TimeUnit.SECONDS));
    try (CachingInputStream in = cache.open(slow, new ObjectIdentity(BUCKET, "t/f", store.head("t/f").get().etag(),
        data.length))) {
      in.readFully(data.length - 100, second);
      assertEquals(1, in.statistics().get(StreamStatistics.HITS), "served by the other thread's fetch");
    }
    t.join();
    assertArrayEquals(Arrays.copyOfRange(data, data.length - 100, data.length), first);
    assertArrayEquals(first, second);
    assertEquals(1, gets(), "one GET for both");
    assertEquals(1, cache.statistics().misses());
    assertEquals(1, cache.statistics().hits());
  }

  /** Parquet reads the footer (the last block, then current) and then a range that ends in it. */
  @Test
  void aPositionedReadIntoTheCurrentBlockUsesItAndFetchesNothingAheadForIt() throws Exception {
    ReadCache cache = ReadCache.open(options(tmp.resolve("cache"), Long.MAX_VALUE, 4));
    try (CachingInputStream in = cache.open(store, "t/f")) {
      in.seek(data.length - 8);
      assertEquals(8, in.read(new byte[8], 0, 8)); // block 9, now the current block
      byte[] range = new byte[BLOCK]; // from 7 bytes before block 9
      in.readFully(data.length - range.length, range); // blocks 8 and 9
      assertArrayEquals(Arrays.copyOfRange(data, data.length - range.length, data.length), range);
      in.awaitReadAhead();
      assertEquals(2, gets(), "blocks 9 and 8, once each");
      assertEquals(0, cache.statistics().hits(), "block 9 not read again from the directory");
      assertEquals(Set.of(), in.blocksAhead());
    }
  }
}
