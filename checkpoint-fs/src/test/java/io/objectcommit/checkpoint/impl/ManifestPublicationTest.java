package io.objectcommit.checkpoint.impl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.CheckpointConstants;
import io.objectcommit.store.testing.FaultRule;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The S3 backend's publication, through the streams {@link ManifestBackend#create} returns, on the in-memory store:
 * the requests of each outcome exactly, and what is visible after it (docs/checkpoint-format.md, Operations).
 */
class ManifestPublicationTest {

  private static final String PREFIX = "q/";
  private static final Path DIR = new Path("ckpt://bucket/q/offsets");
  /** Keys of data objects (not manifests) and of manifests, for fault rules. */
  private static final String DATA_KEYS = "^q/(?!\\.ckpt/)";
  private static final String MANIFESTS = "\\.ckpt/dirs/";

  @TempDir
  java.nio.file.Path buffers;

  /** A bucket of its own per test: the backend ensures a namespace's root once per JVM. */
  private final InMemoryObjectStore store = InMemoryObjectStore.create("bucket-" + UUID.randomUUID());
  private ManifestBackend backend;

  @BeforeEach
  void makeDirectory() throws IOException {
    backend = newBackend();
    backend.mkdirs(DIR);
  }

  private ManifestBackend newBackend() throws IOException {
    return new ManifestBackend(store, PREFIX, 10_000, 0, 20, 3, new OutputBuffers(1024, buffers), "me",
        InlineLimits.NONE, Fences.of(""), CheckpointConstants.CHECKSUM_PAIR_WAIT_DEFAULT_MS);
  }

  private static void write(FSDataOutputStream out, String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.UTF_8));
  }

  private String read(Path p) throws IOException {
    return readWith(backend, p);
  }

  /** Data objects under the namespace, not manifests. */
  private List<String> dataObjects() {
    return store.keys(PREFIX).stream().filter(k -> !k.contains(".ckpt/")).collect(Collectors.toList());
  }

  @Test
  void aNewFileIsOneDataPutAndOneConditionalManifestPutAndNothingBefore() throws Exception {
    Path file = new Path(DIR, "0");
    InMemoryRequestCounts before = store.counts();
    FSDataOutputStream out = backend.create(file, false, true);
    write(out, "{\"batch\":0}");
    assertEquals(0, store.counts().minus(before).total(), "creating and writing sends nothing");
    assertTrue(dataObjects().isEmpty(), "no object before close");
    out.close();
    InMemoryRequestCounts used = store.counts().minus(before);
    assertEquals(2, used.total(), used.toString());
    assertEquals(2, used.succeeded(S3Operation.PUT), used.toString());
    assertEquals(1, used.conditional(S3Operation.PUT), "the manifest's: " + used);
    assertEquals("{\"batch\":0}", read(file));
    assertEquals(1, dataObjects().size());
  }

  @Test
  void aFileLargerThanTheMemoryBufferIsPublishedFromItsSpillFile() throws Exception {
    Path file = new Path(DIR, "big");
    byte[] data = new byte[5000];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) i;
    }
    try (FSDataOutputStream out = backend.create(file, false, true)) {
      out.write(data);
    }
    try (FSDataInputStream in = backend.open(file, 4096)) {
      assertArrayEquals(data, in.readAllBytes());
    }
    try (Stream<java.nio.file.Path> left = Files.list(buffers)) {
      assertEquals(0, left.count(), "the spill file is removed");
    }
  }

  /**
   * Two writers create one name exclusively (Spark's offset log when two queries share a checkpoint): the one that
   * closes second is refused by the manifest's conditional write, reads it afresh, finds the name taken and fails;
   * its data object is deleted and the winner's file is untouched.
   */
  @Test
  void anExclusiveCreateThatLosesLeavesNothingAndReportsFileAlreadyExists() throws Exception {
    Path file = new Path(DIR, "1");
    ManifestBackend other = newBackend();
    other.mkdirs(DIR);
    FSDataOutputStream loser = backend.create(file, false, true);
    write(loser, "loser");
    FSDataOutputStream winner = other.create(file, false, true);
    write(winner, "winner");
    winner.close();
    InMemoryRequestCounts before = store.counts();
    assertThrows(FileAlreadyExistsException.class, loser::close);
    InMemoryRequestCounts used = store.counts().minus(before);
    // data PUT; manifest PUT refused (412); fresh GET; DELETE of the unpublished data object
    assertEquals(4, used.total(), used.toString());
    assertEquals(1, used.of(S3Operation.PUT, 412), used.toString());
    assertEquals(1, used.of(S3Operation.GET), used.toString());
    assertEquals(1, used.of(S3Operation.DELETE), used.toString());
    assertEquals("winner", read(file));
    assertEquals(1, dataObjects().size(), "only the winner's data object: " + dataObjects());
  }

  @Test
  void aFailedManifestWriteLeavesNothingVisibleAndDeletesTheData() throws Exception {
    Path file = new Path(DIR, "2");
    FSDataOutputStream out = backend.create(file, false, true);
    write(out, "lost");
    store.addFault(FaultRule.failing(S3Operation.PUT).matching(MANIFESTS));
    IOException e = assertThrows(IOException.class, out::close);
    store.clearFaults();
    assertTrue(e.getMessage().contains(".ckpt/dirs/"), e.getMessage());
    assertThrows(FileNotFoundException.class, () -> newBackend().getFileStatus(file));
    assertTrue(dataObjects().isEmpty(), "the unpublished data object is deleted: " + dataObjects());
  }

  /**
   * The manifest write took effect but its answer was lost (the store's retries exhausted): a fresh read finds the
   * file named, so the close succeeds and the data object it names stays.
   */
  @Test
  void aManifestWriteAppliedButUnansweredIsSettledByAFreshRead() throws Exception {
    Path file = new Path(DIR, "5");
    FSDataOutputStream out = backend.create(file, false, true);
    write(out, "landed");
    store.addFault(FaultRule.failing(S3Operation.PUT).matching(MANIFESTS).times(1).afterApplying());
    InMemoryRequestCounts before = store.counts();
    out.close();
    InMemoryRequestCounts used = store.counts().minus(before);
    // data PUT, manifest PUT (applied, failed), fresh GET of the manifest
    assertEquals(3, used.total(), used.toString());
    assertEquals(1, used.of(S3Operation.GET), used.toString());
    assertEquals("landed", read(file));
    assertEquals("landed", readWith(newBackend(), file));
    assertEquals(1, dataObjects().size(), dataObjects().toString());
  }

  /**
   * Spark interrupts a task it cancels, and the store's client refuses every request of an interrupted thread. An
   * interrupt that lands while the data object is uploaded (stored, the answer lost to the interrupt) fails the close
   * and still deletes the object; the interrupt stays set for Spark.
   */
  @Test
  void anInterruptDuringTheDataUploadLeavesNoObject() throws Exception {
    Path file = new Path(DIR, "6");
    IOException e = closeWhileInterrupted(file, FaultRule.failing(S3Operation.PUT).matching(DATA_KEYS).times(1)
        .afterApplying());
    assertTrue(e instanceof InterruptedIOException, String.valueOf(e));
    assertTrue(dataObjects().isEmpty(), "the uploaded object is deleted: " + dataObjects());
    assertThrows(FileNotFoundException.class, () -> newBackend().getFileStatus(file));
  }

  /** A data PUT the store refuses stored nothing: no DELETE follows it, and the refusal reaches the caller. */
  @Test
  void aRefusedDataUploadIsNotFollowedByADelete() throws Exception {
    Path file = new Path(DIR, "9");
    FSDataOutputStream out = backend.create(file, false, true);
    write(out, "denied");
    store.addFault(FaultRule.failing(S3Operation.PUT).matching(DATA_KEYS).countedAs(403)
        .throwing(path -> new AccessDeniedException(path, null, "s3:PutObject denied")));
    InMemoryRequestCounts before = store.counts();
    assertThrows(AccessDeniedException.class, out::close);
    InMemoryRequestCounts used = store.counts().minus(before);
    assertEquals(1, used.total(), "the refused PUT only: " + used);
    assertThrows(FileNotFoundException.class, () -> newBackend().getFileStatus(file));
  }

  /** An interrupt while the manifest is written, before the store saw it: the data object is deleted. */
  @Test
  void anInterruptBeforeTheManifestWriteLeavesNoObject() throws Exception {
    Path file = new Path(DIR, "7");
    IOException e = closeWhileInterrupted(file, FaultRule.failing(S3Operation.PUT).matching(MANIFESTS).times(1));
    assertTrue(e instanceof InterruptedIOException, String.valueOf(e));
    assertTrue(dataObjects().isEmpty(), "the unpublished object is deleted: " + dataObjects());
    assertThrows(FileNotFoundException.class, () -> newBackend().getFileStatus(file));
  }

  /**
   * An interrupt after the manifest write took effect: the file is published, so the close succeeds (the interrupt
   * kept) and its data object stays; deleting it would leave the manifest naming a missing object.
   */
  @Test
  void anInterruptAfterTheManifestWriteKeepsThePublishedFile() throws Exception {
    Path file = new Path(DIR, "8");
    assertNull(closeWhileInterrupted(file, FaultRule.failing(S3Operation.PUT).matching(MANIFESTS).times(1)
        .afterApplying()));
    assertEquals("written", readWith(newBackend(), file));
    assertEquals(1, dataObjects().size(), dataObjects().toString());
  }

  /**
   * Writes a file and closes it while {@code fault} interrupts the thread (the store refusing every request of an
   * interrupted thread, as the SDKs do); asserts the interrupt is kept for the caller.
   *
   * @return what the close threw; null if it succeeded
   */
  private IOException closeWhileInterrupted(Path file, FaultRule fault) throws IOException {
    FSDataOutputStream out = backend.create(file, false, true);
    write(out, "written");
    store.addFault(FaultRule.onInterruptedThreads());
    store.addFault(fault.throwing(ManifestPublicationTest::interruptNow));
    IOException thrown = null;
    try {
      out.close();
    } catch (IOException e) {
      thrown = e;
    }
    assertTrue(Thread.interrupted(), "the interrupt is kept for the caller");
    return thrown;
  }

  /** What the client of an interrupted request throws: the thread's interrupt set, an InterruptedIOException. */
  private static InterruptedIOException interruptNow(String path) {
    Thread.currentThread().interrupt();
    return new InterruptedIOException(path + ": interrupted");
  }

  private static String readWith(ManifestBackend b, Path p) throws IOException {
    try (FSDataInputStream in = b.open(p, 4096)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void anOverwriteDeletesTheReplacedDataObject() throws Exception {
    Path file = new Path(DIR, "metadata");
    try (FSDataOutputStream out = backend.create(file, true, true)) {
      write(out, "first");
    }
    InMemoryRequestCounts before = store.counts();
    try (FSDataOutputStream out = backend.create(file, true, true)) {
      write(out, "second");
    }
    InMemoryRequestCounts used = store.counts().minus(before);
    assertEquals(3, used.total(), "data PUT, manifest PUT, DELETE of the old data: " + used);
    assertEquals(1, used.of(S3Operation.DELETE), used.toString());
    assertEquals("second", read(file));
    assertEquals(1, dataObjects().size());
  }

  /** Abort before close: no request at all, no object, no entry; the close that follows does nothing. */
  @Test
  void anAbortedStreamSendsNothingAndLeavesNothing() throws Exception {
    Path file = new Path(DIR, "3");
    InMemoryRequestCounts before = store.counts();
    FSDataOutputStream out = backend.create(file, false, true);
    write(out, "never");
    assertFalse(out.abort().alreadyClosed());
    out.close();
    InMemoryRequestCounts used = store.counts().minus(before);
    assertEquals(0, used.total(), "no PUT, nothing at all: " + used);
    assertTrue(dataObjects().isEmpty());
    assertThrows(FileNotFoundException.class, () -> newBackend().getFileStatus(file));
  }

  /** An aborted stream whose bytes had spilled to a local file removes that file too. */
  @Test
  void anAbortedStreamRemovesItsSpillFile() throws Exception {
    InMemoryRequestCounts before = store.counts();
    FSDataOutputStream out = backend.create(new Path(DIR, "4"), false, true);
    out.write(new byte[5000]);
    try (Stream<java.nio.file.Path> spilled = Files.list(buffers)) {
      assertEquals(1, spilled.count(), "the buffer spilled to a file");
    }
    assertNull(out.abort().anyCleanupException());
    try (Stream<java.nio.file.Path> left = Files.list(buffers)) {
      assertEquals(0, left.count());
    }
    assertEquals(0, store.counts().minus(before).total());
  }
}
