package io.objectcommit.checkpoint.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.files.DirManifest;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Changes of one directory's manifest made at once by threads of one JVM: each conditional write starts from the
 * ETag the previous one wrote, so none is refused and none needs a fresh read (Spark 4.1's state store closes each
 * state file and its {@code .crc} in parallel, in one directory). The compare-and-swap against other processes is
 * the same as before: a change made behind this JVM's back is still found by a refused write and a fresh read.
 */
class ManifestStoreTest {

  private static final String DIR = "d-1";
  private static final int THREADS = 4;

  private final InMemoryObjectStore store = InMemoryObjectStore.create("bucket");
  private final ManifestStore manifests =
      new ManifestStore(store, "q/", 20, 3, System::currentTimeMillis, ms -> { });
  private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  /**
   * Each change waits (up to 300 ms) until every thread has entered one: had the changes run side by side they
   * would all start from one ETag and all but one write would be refused, whatever the timing.
   */
  @Test
  void concurrentChangesOfOneManifestInOneJvmSendOnePutEachAndNoRead() throws Exception {
    manifests.createEmpty(DIR, "/q/state/0/3");
    InMemoryRequestCounts before = store.counts();
    CountDownLatch entered = new CountDownLatch(THREADS);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      String name = "file-" + t;
      done.add(pool.submit(() -> manifests.update(DIR, "/q/state/0/3", m -> {
        entered.countDown();
        try {
          entered.await(300, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException();
        }
        m.entries.put(name, DirManifest.Entry.file("q/data-" + name, 1, 1));
        return null;
      })));
    }
    for (Future<?> f : done) {
      f.get(30, TimeUnit.SECONDS);
    }
    InMemoryRequestCounts used = store.counts().minus(before);
    assertEquals(THREADS, used.total(), "one conditional PUT per change, nothing else: " + used);
    assertEquals(THREADS, used.succeeded(S3Operation.PUT), used.toString());
    assertEquals(0, used.of(S3Operation.GET), used.toString());
    manifests.forget(DIR);
    assertEquals(THREADS, manifests.get(DIR, "/q/state/0/3", 0).manifest.entries.size(),
        "every change is in the manifest");
  }

  /**
   * Whether a copy was read after a point of a walk is told by the order of the requests, not by the clock: a
   * directory walk believes a missing name only from a manifest read during the walk, and a clock (here one that
   * stands still) cannot make a copy just read look older than the walk, nor a cached one newer.
   */
  @Test
  void aCopyReadDuringAWalkIsToldFromACachedOneByTheRequestsNotTheClock() throws Exception {
    ManifestStore stillClock = new ManifestStore(store, "q/", 20, 3, () -> 0L, ms -> { });
    stillClock.createEmpty(DIR, "/q");
    long walkStarts = stillClock.requestsSent();
    InMemoryRequestCounts before = store.counts();
    assertFalse(stillClock.get(DIR, "/q", Long.MAX_VALUE).sentAfter(walkStarts), "the copy written before");
    assertEquals(0, store.counts().minus(before).total(), "taken from the cache");
    assertTrue(stillClock.get(DIR, "/q", 0).sentAfter(walkStarts), "revalidated during the walk");
    assertEquals(1, store.counts().minus(before).of(S3Operation.GET), store.counts().minus(before).toString());
    long nextWalk = stillClock.requestsSent();
    assertFalse(stillClock.get(DIR, "/q", Long.MAX_VALUE).sentAfter(nextWalk), "read before the next walk");
  }

  /** Another process's change: this JVM's cached ETag is stale, its write is refused, and it reads and retries. */
  @Test
  void aChangeByAnotherProcessIsStillFoundByTheConditionalWrite() throws Exception {
    manifests.createEmpty(DIR, "/q/state/0/3");
    ManifestStore otherProcess = new ManifestStore(store, "q/", 20, 3, System::currentTimeMillis, ms -> { });
    otherProcess.update(DIR, "/q/state/0/3", m -> m.entries.put("theirs", DirManifest.Entry.file("q/t", 1, 1)));
    InMemoryRequestCounts before = store.counts();
    manifests.update(DIR, "/q/state/0/3", m -> m.entries.put("ours", DirManifest.Entry.file("q/o", 1, 1)));
    InMemoryRequestCounts used = store.counts().minus(before);
    assertEquals(2, used.of(S3Operation.PUT), "the refused write and the retried one: " + used);
    assertEquals(1, used.succeeded(S3Operation.PUT), used.toString());
    assertEquals(1, used.of(S3Operation.GET), "one fresh read: " + used);
    manifests.forget(DIR);
    assertTrue(manifests.get(DIR, "/q/state/0/3", 0).manifest.entries.keySet().containsAll(List.of("theirs", "ours")));
    assertEquals(2, manifests.get(DIR, "/q/state/0/3", 0).manifest.entries.size());
  }
}
