package io.objectcommit.checkpoint.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.objectcommit.fs.ConditionalWritesUnsupportedException;
import io.objectcommit.fs.EmulationRefusedException;
import io.objectcommit.fs.StoreGuarantee;
import io.objectcommit.fs.StoreGuaranteeException;
import io.objectcommit.testsupport.S3Endpoints;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3Store;
import io.objectcommit.testsupport.S3TestBucket;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * Several writers (each its own FileSystem, as separate processes would be) create files in one {@code ckpt://}
 * directory at once. Every file must be listed afterwards: on a store whose conditional writes are atomic they are;
 * on one whose are not, the guarantee check refuses the store before anything is written, and with the check
 * skipped ({@code conditional-writes=assume}) files are lost without an error, which is what the check prevents.
 */
@S3IntegrationTest
class ConcurrentDirectoryWritersIT {

  private static final int WRITERS = 4;
  private static final int FILES_EACH = 15;
  private static final int ATTEMPTS = 8;

  /** The stores of the matrix that fail a guarantee checkpoint-fs relies on, and which one. */
  static StoreGuarantee failedGuarantee(S3Store store) {
    switch (store) {
      case S3PROXY:
        return StoreGuarantee.ATOMIC_COMPARE_AND_SWAP;
      case S3MOCK:
        return StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE;
      case MOTO_OLD:
      case S3PROXY_OLD:
        return StoreGuarantee.IF_NONE_MATCH_PUT;
      default:
        return null;
    }
  }

  @Test
  void everyFileOfConcurrentWritersIsListedOrTheStoreIsRefusedUpFront(S3TestBucket bucket) throws Exception {
    Configuration conf = CkptTestSupport.conf(bucket.endpoint(), bucket);
    Path dir = CkptTestSupport.path(bucket, bucket.prefix() + "q/state");
    StoreGuarantee failing = failedGuarantee(S3Endpoints.store());
    if (failing != null) {
      // refused when the file system opens, before anything is written
      ConditionalWritesUnsupportedException e = assertThrows(ConditionalWritesUnsupportedException.class, () -> {
        try (FileSystem fs = CkptTestSupport.fs(conf, bucket)) {
          CkptTestSupport.write(fs, new Path(dir, "first"), "x", false);
        }
      });
      if (e instanceof StoreGuaranteeException) {
        StoreGuaranteeException g = (StoreGuaranteeException) e;
        assertTrue(g.failedGuarantees().contains(failing), g.failedGuarantees() + ": " + e.getMessage());
        // refused by the file system's first conditional write check at initialize (a store ignoring
        // If-None-Match) or by checkpoint-fs's own check of the guarantees the manifests need
        assertTrue(e.getMessage().contains(failing.name()) && (e.getMessage().contains("checkpoint-fs")
            || e.getMessage().contains("a conditional write"))
            && e.getMessage().contains(bucket.endpoint().uri().toString()), e.getMessage());
      } else {
        // a store that ignores If-None-Match altogether is already refused by the bucket's first probe
        assertEquals(StoreGuarantee.IF_NONE_MATCH_PUT, failing, e.getMessage());
        assertTrue(e.getMessage().contains("If-None-Match"), e.getMessage());
      }
      System.out.println("STORE-MATRIX " + S3Endpoints.store().description() + ": checkpoint-fs refused: "
          + e.getMessage());
      assertEquals(List.of(), bucket.listKeys("q/"), "nothing written before the refusal");
      return;
    }
    Outcome outcome = writeConcurrently(conf, bucket, dir);
    assertEquals(List.of(), outcome.failures(), outcome.toString());
    assertEquals(WRITERS * FILES_EACH, outcome.listed(), outcome.toString());
  }

  @Test
  void withTheCheckSkippedANonAtomicStoreLosesFiles(S3TestBucket bucket) throws Exception {
    assumeTrue(S3Endpoints.store() == S3Store.S3PROXY, "shown on S3Proxy 4.1.0 (racing If-Match writes)");
    Configuration conf = CkptTestSupport.conf(bucket.endpoint(), bucket);
    conf.set("fs.objectcommit.conditional-writes", "assume");
    // A lost update needs two writers inside the store's check-then-write window: usual on the first round, but
    // a race all the same, so up to ATTEMPTS rounds in fresh directories; a create that fails (a torn manifest
    // on a non-atomic store) ends its writer and is not counted as created.
    Outcome outcome = null;
    for (int attempt = 0; attempt < ATTEMPTS && (outcome == null || outcome.lost() == 0); attempt++) {
      outcome = writeConcurrently(conf, bucket, CkptTestSupport.path(bucket, bucket.prefix() + "q" + attempt + "/s"));
      System.out.println("STORE-MATRIX S3Proxy 4.1.0 with conditional-writes=assume, round " + (attempt + 1) + ": "
          + outcome);
    }
    assertTrue(outcome.lost() > 0, "no create was lost in " + ATTEMPTS + " rounds: " + outcome);
  }

  /**
   * {@code emulate} (a HEAD before each write) cannot keep concurrent writers into one directory safe: the file
   * system refuses it when it opens, naming the component and the key, before anything is written (any store).
   */
  @Test
  void emulatedConditionalWritesAreRefusedUpFront(S3TestBucket bucket) {
    Configuration conf = CkptTestSupport.conf(bucket.endpoint(), bucket);
    conf.set("fs.objectcommit.conditional-writes", "emulate");
    EmulationRefusedException e = assertThrows(EmulationRefusedException.class, () -> {
      try (FileSystem fs = CkptTestSupport.fs(conf, bucket)) {
        CkptTestSupport.write(fs, CkptTestSupport.path(bucket, bucket.prefix() + "e/first"), "x", false);
      }
    });
    assertEquals("checkpoint-fs (ckpt://)", e.component());
    assertEquals("fs.objectcommit.conditional-writes", e.setting());
    assertTrue(e.getMessage().contains("fs.objectcommit.conditional-writes=emulate"), e.getMessage());
    assertEquals(List.of(), bucket.listKeys(""), "nothing written");
  }

  /** What one round of concurrent writers left: creates that returned normally, files listed, failed creates. */
  private record Outcome(int created, int listed, List<String> failures) {
    int lost() {
      return created - listed;
    }

    @Override
    public String toString() {
      return created + " creates returned normally, " + listed + " files listed (" + lost() + " lost), "
          + failures.size() + " creates failed" + (failures.isEmpty() ? "" : " " + failures);
    }
  }

  /**
   * Writes up to {@link #FILES_EACH} files from each of {@link #WRITERS} FileSystems at once (a writer stops at
   * its first failed create) and lists the directory.
   */
  private static Outcome writeConcurrently(Configuration conf, S3TestBucket bucket, Path dir) throws Exception {
    try (FileSystem setup = CkptTestSupport.fs(conf, bucket)) {
      setup.mkdirs(dir);
    }
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    CountDownLatch go = new CountDownLatch(1);
    AtomicInteger created = new AtomicInteger();
    List<String> failures = new CopyOnWriteArrayList<>();
    try {
      List<Future<Void>> done = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        done.add(pool.submit(() -> {
          try (FileSystem fs = CkptTestSupport.fs(conf, bucket)) {
            go.await();
            for (int i = 0; i < FILES_EACH; i++) {
              try {
                CkptTestSupport.write(fs, new Path(dir, "w" + writer + "-" + i), "writer " + writer, false);
              } catch (IOException e) {
                failures.add(e.getClass().getSimpleName() + " (w" + writer + "-" + i + ")");
                break;
              }
              created.incrementAndGet();
            }
          }
          return null;
        }));
      }
      go.countDown();
      for (Future<Void> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    try (FileSystem fs = CkptTestSupport.fs(conf, bucket)) {
      return new Outcome(created.get(), fs.listStatus(dir).length, failures);
    }
  }

}
