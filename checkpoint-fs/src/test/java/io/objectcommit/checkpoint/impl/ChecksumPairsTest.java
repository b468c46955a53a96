package io.objectcommit.checkpoint.impl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.testing.FaultRule;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file and its checksum file ({@code NAME.crc}) closed at once by one process, as Spark 4.1's checksum manager
 * closes every state file and its checksum, are published in one manifest write; each keeps its own outcome; a
 * partner that never closes, or is aborted, leaves the other to be written alone. Exact requests on the in-memory
 * store.
 */
class ChecksumPairsTest {

  private static final String PREFIX = "q/";
  private static final Path DIR = new Path("ckpt://bucket/q/state/0/1");
  /** Long enough that a test's second close always arrives within it, however slow the machine. */
  private static final long PATIENT_MS = 60_000;

  @TempDir
  java.nio.file.Path buffers;

  private final InMemoryObjectStore store = InMemoryObjectStore.create("bucket-" + UUID.randomUUID());
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  private ManifestBackend backend(long pairWaitMs) throws IOException {
    ManifestBackend b = new ManifestBackend(store, PREFIX, 10_000, 0, 20, 3, new OutputBuffers(1024, buffers), "me",
        new InlineLimits(8 * 1024, 128 * 1024), Fences.of(""), pairWaitMs);
    b.mkdirs(DIR);
    return b;
  }

  private static FSDataOutputStream create(ManifestBackend b, String name, byte[] content) throws IOException {
    FSDataOutputStream out = b.create(new Path(DIR, name), false, true);
    out.write(content);
    return out;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] read(ManifestBackend b, String name) throws IOException {
    try (FSDataInputStream in = b.open(new Path(DIR, name), 4096)) {
      return in.readAllBytes();
    }
  }

  private List<String> dataObjects() {
    return store.keys(PREFIX).stream().filter(k -> !k.contains(".ckpt/")).collect(Collectors.toList());
  }

  /** Closes both streams in two threads released at the same moment, as Spark does; the outcome of each. */
  private List<CompletableFuture<Void>> closeAtOnce(FSDataOutputStream a, FSDataOutputStream b) {
    CyclicBarrier start = new CyclicBarrier(2);
    return List.of(closeAfter(start, a), closeAfter(start, b));
  }

  private CompletableFuture<Void> closeAfter(CyclicBarrier start, FSDataOutputStream out) {
    return CompletableFuture.runAsync(() -> {
      try {
        start.await(30, TimeUnit.SECONDS);
        out.close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }, threads);
  }

  private Future<?> closeInBackground(FSDataOutputStream out) {
    return threads.submit(() -> {
      out.close();
      return null;
    });
  }

  /** The cause a close failed with (unwrapped from the future), or null when it succeeded. */
  private static Throwable failure(CompletableFuture<Void> f) throws Exception {
    try {
      f.get(30, TimeUnit.SECONDS);
      return null;
    } catch (ExecutionException e) {
      return e.getCause().getCause();
    }
  }

  @Test
  void aFileAndItsChecksumClosedAtOnceCostOneConditionalPut() throws Exception {
    ManifestBackend b = backend(PATIENT_MS);
    FSDataOutputStream delta = create(b, "1.delta", bytes("state of batch 1"));
    FSDataOutputStream crc = create(b, "1.delta.crc", bytes("{\"algorithm\":\"CRC32C\"}"));
    InMemoryRequestCounts before = store.counts();
    for (CompletableFuture<Void> f : closeAtOnce(delta, crc)) {
      assertEquals(null, failure(f));
    }
    InMemoryRequestCounts used = store.counts().minus(before);
    assertEquals(1, used.total(), "one manifest write for both: " + used);
    assertEquals(1, used.conditional(S3Operation.PUT), used.toString());
    assertArrayEquals(bytes("state of batch 1"), read(backend(PATIENT_MS), "1.delta"));
    assertArrayEquals(bytes("{\"algorithm\":\"CRC32C\"}"), read(backend(PATIENT_MS), "1.delta.crc"));
  }

  /** The partner's order does not matter: the checksum file may be closed first. */
  @Test
  void theChecksumFileClosedFirstWaitsForItsFile() throws Exception {
    ManifestBackend b = backend(PATIENT_MS);
    FSDataOutputStream delta = create(b, "2.delta", bytes("two"));
    FSDataOutputStream crc = create(b, "2.delta.crc", bytes("crc of two"));
    InMemoryRequestCounts before = store.counts();
    Future<?> first = closeInBackground(crc);
    awaitWaiting(first, "the checksum file's close waits for its file");
    delta.close();
    first.get(30, TimeUnit.SECONDS);
    assertEquals(1, store.counts().minus(before).total(), store.counts().minus(before).toString());
    assertArrayEquals(bytes("crc of two"), read(b, "2.delta.crc"));
  }

  /** A large file uploads its data object first; its checksum file waits for it and rides in its manifest write. */
  @Test
  void aLargeFileAndItsChecksumCostItsDataPutAndOneManifestPut() throws Exception {
    ManifestBackend b = backend(PATIENT_MS);
    byte[] large = new byte[20_000];
    large[7] = 7;
    FSDataOutputStream zip = create(b, "3.zip", large);
    FSDataOutputStream crc = create(b, "3.zip.crc", bytes("crc of three"));
    InMemoryRequestCounts before = store.counts();
    for (CompletableFuture<Void> f : closeAtOnce(zip, crc)) {
      assertEquals(null, failure(f));
    }
    InMemoryRequestCounts used = store.counts().minus(before);
    assertEquals(2, used.total(), used.toString());
    assertEquals(2, used.succeeded(S3Operation.PUT), "data object, then one manifest write: " + used);
    assertEquals(1, used.conditional(S3Operation.PUT), used.toString());
    assertArrayEquals(large, read(b, "3.zip"));
    assertArrayEquals(bytes("crc of three"), read(b, "3.zip.crc"));
  }

  /**
   * Another process created the file's name meanwhile: the one write publishes the checksum file and refuses the
   * file, whose close fails as it would alone; its partner's close succeeds.
   */
  @Test
  void eachFileKeepsItsOwnOutcome() throws Exception {
    ManifestBackend b = backend(PATIENT_MS);
    FSDataOutputStream delta = create(b, "4.delta", bytes("mine"));
    FSDataOutputStream crc = create(b, "4.delta.crc", bytes("crc of mine"));
    ManifestBackend other = backend(PATIENT_MS);
    try (FSDataOutputStream theirs = create(other, "4.delta", bytes("theirs"))) {
      assertTrue(theirs != null);
    }
    InMemoryRequestCounts before = store.counts();
    List<CompletableFuture<Void>> closes = closeAtOnce(delta, crc);
    Throwable deltaFailure = failure(closes.get(0));
    assertTrue(deltaFailure instanceof FileAlreadyExistsException, String.valueOf(deltaFailure));
    assertEquals(null, failure(closes.get(1)));
    InMemoryRequestCounts used = store.counts().minus(before);
    // the write from the stale copy refused (412), the fresh read, the write of the checksum file alone
    assertEquals(3, used.total(), used.toString());
    assertEquals(1, used.of(S3Operation.PUT, 412), used.toString());
    assertEquals(1, used.of(S3Operation.GET), used.toString());
    assertArrayEquals(bytes("theirs"), read(b, "4.delta"));
    assertArrayEquals(bytes("crc of mine"), read(b, "4.delta.crc"));
  }

  /** The one write fails (not a refusal): both closes fail and neither file is visible. */
  @Test
  void aFailedWriteFailsBothAndShowsNeither() throws Exception {
    ManifestBackend b = backend(PATIENT_MS);
    FSDataOutputStream delta = create(b, "5.delta", bytes("five"));
    FSDataOutputStream crc = create(b, "5.delta.crc", bytes("crc of five"));
    store.addFault(FaultRule.failing(S3Operation.PUT).matching("\\.ckpt/dirs/"));
    InMemoryRequestCounts before = store.counts();
    List<CompletableFuture<Void>> closes = closeAtOnce(delta, crc);
    for (CompletableFuture<Void> f : closes) {
      assertTrue(failure(f) instanceof IOException, "both fail");
    }
    store.clearFaults();
    assertEquals(1, store.counts().minus(before).of(S3Operation.PUT), "one write, for both");
    ManifestBackend fresh = backend(PATIENT_MS);
    assertThrows(FileNotFoundException.class, () -> fresh.getFileStatus(new Path(DIR, "5.delta")));
    assertThrows(FileNotFoundException.class, () -> fresh.getFileStatus(new Path(DIR, "5.delta.crc")));
    assertEquals(List.of(), dataObjects());
  }

  /** Spark cancels both streams when a task fails: a file waiting for its aborted partner is written at once. */
  @Test
  void anAbortedPartnerReleasesTheWaitingFile() throws Exception {
    ManifestBackend b = backend(PATIENT_MS);
    FSDataOutputStream delta = create(b, "6.delta", bytes("six"));
    FSDataOutputStream crc = create(b, "6.delta.crc", bytes("crc of six"));
    InMemoryRequestCounts before = store.counts();
    Future<?> closing = closeInBackground(delta);
    awaitWaiting(closing, "the file's close waits for its checksum file");
    crc.abort();
    closing.get(30, TimeUnit.SECONDS); // well before the 60 s bound
    assertEquals(1, store.counts().minus(before).total(), store.counts().minus(before).toString());
    assertArrayEquals(bytes("six"), read(b, "6.delta"));
    assertThrows(FileNotFoundException.class, () -> b.getFileStatus(new Path(DIR, "6.delta.crc")));
  }

  /** A partner that stays open is waited for no longer than the bound; each file is then written alone. */
  @Test
  void aPartnerThatIsNotClosedIsWaitedForOnlyUpToTheBound() throws Exception {
    ManifestBackend b = backend(20);
    FSDataOutputStream delta = create(b, "7.delta", bytes("seven"));
    FSDataOutputStream crc = create(b, "7.delta.crc", bytes("crc of seven"));
    InMemoryRequestCounts before = store.counts();
    delta.close();
    assertEquals(1, store.counts().minus(before).total(), "written alone after the wait");
    assertArrayEquals(bytes("seven"), read(b, "7.delta"));
    crc.close();
    assertEquals(2, store.counts().minus(before).of(S3Operation.PUT), "the checksum file alone, too");
    assertArrayEquals(bytes("crc of seven"), read(b, "7.delta.crc"));
  }

  /** A file without a partner being written does not wait at all: nothing to pair with, one write. */
  @Test
  void aFileWithoutAnOpenPartnerIsWrittenAtOnce() throws Exception {
    ManifestBackend b = backend(PATIENT_MS);
    FSDataOutputStream log = create(b, "8", bytes("v1 offsets"));
    Future<?> closing = closeInBackground(log);
    closing.get(30, TimeUnit.SECONDS); // would take the 60 s bound if it waited
    assertArrayEquals(bytes("v1 offsets"), read(b, "8"));
  }

  /** With the wait set to 0 the files are never paired: two writes. */
  @Test
  void aWaitOfZeroWritesEachFileAlone() throws Exception {
    ManifestBackend b = backend(0);
    FSDataOutputStream delta = create(b, "9.delta", bytes("nine"));
    FSDataOutputStream crc = create(b, "9.delta.crc", bytes("crc of nine"));
    InMemoryRequestCounts before = store.counts();
    for (CompletableFuture<Void> f : closeAtOnce(delta, crc)) {
      assertEquals(null, failure(f));
    }
    assertEquals(2, store.counts().minus(before).succeeded(S3Operation.PUT));
  }

  @Test
  void partnerNames() {
    assertEquals("1.delta.crc", ChecksumPairs.partnerOf("1.delta"));
    assertEquals("1.delta", ChecksumPairs.partnerOf("1.delta.crc"));
    assertEquals(".crc.crc", ChecksumPairs.partnerOf(".crc"));
    assertFalse(ChecksumPairs.partnerOf("x").isEmpty());
  }

  /** Waits until the task's thread parks (its close waits for the partner), so that the test orders the two. */
  private void awaitWaiting(Future<?> task, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      if (task.isDone()) {
        throw new AssertionError(what + ", but it finished first");
      }
      for (Thread t : Thread.getAllStackTraces().keySet()) {
        if (t.getState() == Thread.State.TIMED_WAITING || t.getState() == Thread.State.WAITING) {
          for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().startsWith(ChecksumPairs.class.getName())) {
              return;
            }
          }
        }
      }
      Thread.sleep(5);
    }
    throw new AssertionError(what + ": it never waited");
  }
}
