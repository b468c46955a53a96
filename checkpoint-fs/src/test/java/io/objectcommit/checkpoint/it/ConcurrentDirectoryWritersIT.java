package io.objectcommit.checkpoint.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.objectcommit.store.ConditionalWritesUnsupportedException;
import io.objectcommit.store.guarantee.EmulationRefusedException;
import io.objectcommit.store.guarantee.StoreGuarantee;
import io.objectcommit.store.guarantee.StoreGuaranteeException;
import io.objectcommit.testsupport.S3Endpoints;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3Store;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.FaultPlan;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
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
  /** Files each writer creates when its uploads are stalled (each create then takes two stalls). */
  private static final int FILES_EACH_STALLED = 5;
  private static final Duration UPLOAD_STALL = Duration.ofMillis(250);
  private static final int ROUNDS = 3;

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
    Outcome outcome = writeConcurrently(conf, bucket, dir, FILES_EACH);
    assertEquals(List.of(), outcome.failures(), outcome.toString());
    assertEquals(null, outcome.listingFailure(), outcome.toString());
    assertEquals(WRITERS * FILES_EACH, outcome.created().size(), outcome.toString());
    assertEquals(outcome.created(), outcome.listed(), outcome.toString());
  }

  /**
   * S3Proxy checks an {@code If-Match} when a PutObject's head arrives and writes when its body is in, without a
   * lock between: two manifest updates from one version that overlap there both succeed and one directory entry
   * is lost. Whether writers overlap on their own depends on the machine's speed, so the uploads go through the
   * fault proxy with each PutObject's body held {@link #UPLOAD_STALL} after its head, as on a slow link: the window
   * is then that wide on any machine.
   */
  @Test
  void withTheCheckSkippedANonAtomicStoreLosesFiles(S3TestBucket bucket) throws Exception {
    assumeTrue(S3Endpoints.store() == S3Store.S3PROXY, "shown on S3Proxy 4.1.0 (racing If-Match writes)");
    try (S3FaultProxy proxy = S3FaultProxy.start(bucket.endpoint())) {
      proxy.setFaults(FaultPlan.builder(1).uploadStall(UPLOAD_STALL).build());
      Configuration conf = CkptTestSupport.conf(proxy.endpoint(), bucket);
      conf.set("fs.objectcommit.conditional-writes", "assume");
      List<Outcome> rounds = new ArrayList<>();
      Outcome outcome = null;
      for (int round = 1; round <= ROUNDS && (outcome == null || outcome.lost().isEmpty()); round++) {
        outcome = writeConcurrently(conf, bucket, CkptTestSupport.path(bucket, bucket.prefix() + "q" + round + "/s"),
            FILES_EACH_STALLED);
        System.out.println("STORE-MATRIX S3Proxy 4.1.0 with conditional-writes=assume, uploads stalled "
            + UPLOAD_STALL.toMillis() + " ms, round " + round + ": " + outcome);
        rounds.add(outcome);
      }
      assertFalse(outcome.lost().isEmpty(), "no create was lost in " + rounds.size() + " rounds: " + rounds);
    }
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

  /**
   * What one round of concurrent writers left: the files whose create returned normally, the files listed
   * afterwards (empty when the listing itself failed, e.g. on a torn manifest: then every file is lost), and the
   * creates that failed.
   */
  private record Outcome(Set<String> created, Set<String> listed, String listingFailure, List<String> failures) {
    /** Files whose create returned normally but that are not listed: lost without an error to their writer. */
    Set<String> lost() {
      Set<String> lost = new TreeSet<>(created);
      lost.removeAll(listed);
      return lost;
    }

    @Override
    public String toString() {
      Set<String> lost = lost();
      return created.size() + " creates returned normally, "
          + (listingFailure == null ? listed.size() + " files listed" : "listing failed (" + listingFailure + ")")
          + " (" + lost.size() + " lost" + (lost.isEmpty() ? "" : ": " + lost) + "), " + failures.size()
          + " creates failed" + (failures.isEmpty() ? "" : " " + failures);
    }
  }

  /**
   * Writes up to {@code filesEach} files from each of {@link #WRITERS} FileSystems at once (a writer stops at its
   * first failed create) and lists the directory.
   */
  private static Outcome writeConcurrently(Configuration conf, S3TestBucket bucket, Path dir, int filesEach)
      throws Exception {
    try (FileSystem setup = CkptTestSupport.fs(conf, bucket)) {
      setup.mkdirs(dir);
    }
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    CountDownLatch go = new CountDownLatch(1);
    Set<String> created = ConcurrentHashMap.newKeySet();
    List<String> failures = new CopyOnWriteArrayList<>();
    try {
      List<Future<Void>> done = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        done.add(pool.submit(() -> {
          try (FileSystem fs = CkptTestSupport.fs(conf, bucket)) {
            go.await();
            for (int i = 0; i < filesEach; i++) {
              String name = "w" + writer + "-" + i;
              try {
                CkptTestSupport.write(fs, new Path(dir, name), "writer " + writer, false);
              } catch (IOException e) {
                failures.add(e.getClass().getSimpleName() + " (" + name + ")");
                break;
              }
              created.add(name);
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
    Set<String> listed = new TreeSet<>();
    String listingFailure = null;
    try (FileSystem fs = CkptTestSupport.fs(conf, bucket)) {
      for (FileStatus st : fs.listStatus(dir)) {
        listed.add(st.getPath().getName());
      }
    } catch (IOException e) {
      listingFailure = e.getClass().getSimpleName() + ": " + e.getMessage();
    }
    return new Outcome(created, listed, listingFailure, failures);
  }

}
