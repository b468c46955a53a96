package io.objectcommit.codecs.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.objectcommit.codecs.files.GzipIndex;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** The JVM's gzip indexes: one read per version of an index object, bounded by the stored bytes. */
class GzipIndexCacheTest {

  private static byte[] storedIndex(long seed) throws IOException {
    byte[] text = SplitReading.text(seed, 3_000_000, 500, "\n");
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write(text);
    }
    byte[] file = gz.toByteArray();
    GzipIndex index = GzipIndexBuilder.build(new java.io.ByteArrayInputStream(file), file.length, "etag-" + seed,
        1 << 20);
    return GzipIndex.CODEC.toBytes(index);
  }

  private static FileStatus status(String name, long length, long modified) {
    return new FileStatus(length, false, 1, 1, modified, new Path("file:/data/." + name + ".gzindex"));
  }

  @Test
  void anIndexIsReadOncePerVersion() throws IOException {
    byte[] stored = storedIndex(1);
    AtomicInteger reads = new AtomicInteger();
    GzipIndexCache cache = new GzipIndexCache(GzipIndexCache.MAX_BYTES);
    GzipIndexCache.Reader reader = () -> {
      reads.incrementAndGet();
      return stored;
    };
    GzipIndex first = cache.get(status("a.gz", stored.length, 1000), reader);
    GzipIndex again = cache.get(status("a.gz", stored.length, 1000), reader);
    assertEquals(1, reads.get(), "the second split's lookup is served from the cache");
    assertEquals(first.checkpoints.size(), again.checkpoints.size());
    cache.get(status("a.gz", stored.length, 2000), reader);
    assertEquals(2, reads.get(), "a replaced index (another modification time) is read again");
    cache.get(status("b.gz", stored.length, 1000), reader);
    assertEquals(3, reads.get(), "another file's index is its own entry");
  }

  @Test
  void theLeastRecentlyUsedGoFirstBeyondTheBound() throws IOException {
    byte[] stored = storedIndex(2);
    GzipIndexCache cache = new GzipIndexCache(2L * stored.length);
    GzipIndexCache.Reader reader = () -> stored;
    cache.get(status("a.gz", stored.length, 1), reader);
    cache.get(status("b.gz", stored.length, 1), reader);
    cache.get(status("a.gz", stored.length, 1), reader);
    cache.get(status("c.gz", stored.length, 1), reader);
    assertEquals(2, cache.size(), "two indexes fit");
    AtomicInteger reads = new AtomicInteger();
    GzipIndexCache.Reader counting = () -> {
      reads.incrementAndGet();
      return stored;
    };
    cache.get(status("a.gz", stored.length, 1), counting);
    assertEquals(0, reads.get(), "a, used last before c, stayed");
    cache.get(status("b.gz", stored.length, 1), counting);
    assertEquals(1, reads.get(), "b, the least recently used, was dropped");
  }

  @Test
  void splitsThatAskAtOnceWaitForOneRead() throws Exception {
    byte[] stored = storedIndex(3);
    GzipIndexCache cache = new GzipIndexCache(GzipIndexCache.MAX_BYTES);
    AtomicInteger reads = new AtomicInteger();
    java.util.concurrent.CountDownLatch bothAsked = new java.util.concurrent.CountDownLatch(1);
    GzipIndexCache.Reader slow = () -> {
      reads.incrementAndGet();
      try {
        bothAsked.await(5, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return stored;
    };
    java.util.concurrent.ExecutorService two = java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      java.util.concurrent.Future<GzipIndex> a = two.submit(() -> cache.get(status("a.gz", stored.length, 1), slow));
      java.util.concurrent.Future<GzipIndex> b = two.submit(() -> cache.get(status("a.gz", stored.length, 1), slow));
      Thread.sleep(200);
      bothAsked.countDown();
      assertEquals(a.get().checkpoints.size(), b.get().checkpoints.size());
    } finally {
      two.shutdownNow();
    }
    assertEquals(1, reads.get(), "one read for both splits");
  }

  @Test
  void aDamagedIndexFailsAndIsNotKept() {
    GzipIndexCache cache = new GzipIndexCache(GzipIndexCache.MAX_BYTES);
    byte[] damaged = "{\"type\":\"gzip-index\"".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThrows(IOException.class, () -> cache.get(status("a.gz", damaged.length, 1), () -> damaged));
    assertEquals(0, cache.size());
  }
}
