package io.objectcommit.checkpoint.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
