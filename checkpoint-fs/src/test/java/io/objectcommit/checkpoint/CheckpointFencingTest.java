package io.objectcommit.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.testing.FaultRule;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import io.objectcommit.store.testing.InMemoryStoreFactory;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Fencing on the S3 backend, on the in-memory store: each FileSystem instance plays one process (no shared cache,
 * a fence scope of its own).
 * After a takeover every write of the older owner fails with {@link CheckpointFencedException} and leaves the
 * namespace as it was; the new owner's writes cost what they cost without fencing; a takeover costs one PUT per
 * directory and one GET per directory not cached.
 */
class CheckpointFencingTest {

  private static final AtomicInteger BUCKETS = new AtomicInteger();
  private static final Path Q = new Path("/q");
  /** The directories of the test's checkpoint: /q and the 7 below it. */
  private static final List<String> DIRS = List.of("/q/offsets", "/q/commits", "/q/state", "/q/state/0",
      "/q/state/0/0", "/q/state/0/1", "/q/sources");
  /** Larger than the inline limit: a file with a data object of its own. */
  private static final int LARGE = (int) CheckpointConstants.INLINE_MAX_FILE_SIZE_DEFAULT + 1;

  private final String bucketName = "ckpt-unit-fence-" + BUCKETS.incrementAndGet();
  private final InMemoryObjectStore bucket = InMemoryObjectStore.register(bucketName);
  private final List<FileSystem> opened = new ArrayList<>();
  /** The first driver: owner, then zombie. */
  private FileSystem zombie;

  private FileSystem process() throws IOException {
    Configuration conf = InMemoryStoreFactory.use(new Configuration(false));
    conf.set("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    conf.setBoolean("fs.ckpt.impl.disable.cache", true);
    // epochs are held JVM-wide, as a process's: a scope of its own makes this instance another process
    conf.set(CheckpointConstants.TEST_FENCE_SCOPE, bucketName + "/process-" + opened.size());
    FileSystem fs = FileSystem.newInstance(URI.create("ckpt://" + bucketName + "/"), conf);
    opened.add(fs);
    return fs;
  }

  @BeforeEach
  void start() throws IOException {
    zombie = process();
    assertEquals(1, CheckpointFencing.takeOwnership(zombie, Q, "driver-1"));
    for (String d : DIRS) {
      zombie.mkdirs(new Path(d));
    }
    write(zombie, "/q/offsets/0", "offsets 0".getBytes(StandardCharsets.UTF_8), false);
    write(zombie, "/q/commits/0", "commit 0".getBytes(StandardCharsets.UTF_8), false);
    write(zombie, "/q/state/0/0/1.delta", filled(LARGE), false);
    write(zombie, "/q/state/0/1/1.delta", "small".getBytes(StandardCharsets.UTF_8), false);
  }

  @AfterEach
  void stop() throws IOException {
    for (FileSystem fs : opened) {
      fs.close();
    }
    InMemoryObjectStore.unregister(bucketName);
  }

  private static void write(FileSystem fs, String path, byte[] bytes, boolean overwrite) throws IOException {
    try (FSDataOutputStream out = fs.create(new Path(path), overwrite)) {
      out.write(bytes);
    }
  }

  private static byte[] read(FileSystem fs, String path) throws IOException {
    try (FSDataInputStream in = fs.open(new Path(path))) {
      return in.readAllBytes();
    }
  }

  private static byte[] filled(int size) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) (i * 7);
    }
    return b;
  }

  /** Every path under /q with its size (-1: a directory), as a process that caches nothing sees it. */
  private Map<String, Long> listing() throws IOException {
    Map<String, Long> out = new TreeMap<>();
    FileSystem fresh = process();
    walk(fresh, Q, out);
    return out;
  }

  private static void walk(FileSystem fs, Path dir, Map<String, Long> out) throws IOException {
    for (FileStatus st : fs.listStatus(dir)) {
      String p = st.getPath().toUri().getPath();
      out.put(p, st.isDirectory() ? -1L : st.getLen());
      if (st.isDirectory()) {
        walk(fs, st.getPath(), out);
      }
    }
  }

  private List<String> objects() {
    return bucket.keys("");
  }

  private static CheckpointFencedException fenced(String what, Executable op) {
    CheckpointFencedException e = assertThrows(CheckpointFencedException.class, op, what);
    assertEquals("/q", e.location(), e.getMessage());
    assertEquals(1, e.epoch(), e.getMessage());
    assertEquals("driver-1", e.ownerId(), e.getMessage());
    assertEquals(2, e.newerEpoch(), e.getMessage());
    assertEquals("driver-2", e.newerOwnerId(), e.getMessage());
    assertTrue(e.getMessage().contains("driver-2") && e.getMessage().contains("/q"), e.getMessage());
    return e;
  }

  @Test
  void everyWriteOfAnOlderOwnerFailsAfterATakeoverAndChangesNothing() throws Exception {
    FileSystem executor = process(); // told the first driver's epoch, as an executor of that driver
    CheckpointFencing.writeAs(executor, Q, "driver-1", 1);
    executor.listStatus(new Path("/q/state/0/0")); // caches the directory before the takeover

    FileSystem successor = process();
    assertEquals(2, CheckpointFencing.takeOwnership(successor, Q, "driver-2"));
    Map<String, Long> before = listing();
    List<String> objectsBefore = objects();

    fenced("create of a small file", () -> write(zombie, "/q/offsets/1", "offsets 1".getBytes(
        StandardCharsets.UTF_8), false));
    fenced("create of a file with a data object", () -> write(zombie, "/q/state/0/0/2.delta", filled(LARGE),
        false));
    fenced("overwrite", () -> write(zombie, "/q/commits/0", "again".getBytes(StandardCharsets.UTF_8), true));
    fenced("rename within a directory", () -> zombie.rename(new Path("/q/offsets/0"), new Path("/q/offsets/9")));
    fenced("rename across directories", () -> zombie.rename(new Path("/q/offsets/0"), new Path("/q/commits/9")));
    fenced("delete of a file", () -> zombie.delete(new Path("/q/state/0/1/1.delta"), false));
    fenced("delete of a directory", () -> zombie.delete(new Path("/q/state/0/1"), true));
    fenced("mkdir", () -> zombie.mkdirs(new Path("/q/state/1/0")));
    CheckpointFencedException e = fenced("an executor's state file", () -> write(executor, "/q/state/0/0/2.delta",
        filled(LARGE), false));
    assertEquals("create /q/state/0/0/2.delta", e.operation());

    assertEquals(before, listing(), "nothing of the zombie's writes is listed");
    assertEquals(objectsBefore, objects(), "no object left: a refused file's data object and a refused"
        + " directory's manifest are deleted");

    // the new owner writes as usual
    write(successor, "/q/offsets/1", "offsets 1 of driver-2".getBytes(StandardCharsets.UTF_8), false);
    successor.mkdirs(new Path("/q/state/1/0"));
    assertTrue(successor.delete(new Path("/q/commits/0"), false));
    assertEquals("offsets 1 of driver-2", new String(read(process(), "/q/offsets/1"), StandardCharsets.UTF_8));
  }

  /**
   * A directory the new owner makes after the takeover is stamped when made: a zombie that finds it in a listing
   * it reads afterwards is refused at its first write into it.
   */
  @Test
  void aDirectoryMadeByTheNewOwnerRefusesTheZombieToo() throws Exception {
    FileSystem successor = process();
    CheckpointFencing.takeOwnership(successor, Q, "driver-2");
    successor.mkdirs(new Path("/q/state/1"));
    assertTrue(zombie.getFileStatus(new Path("/q/state/1")).isDirectory(), "the zombie sees it");
    fenced("a file in it", () -> write(zombie, "/q/state/1/1.delta", "x".getBytes(StandardCharsets.UTF_8), false));
    assertEquals(List.of(), List.of(successor.listStatus(new Path("/q/state/1"))));
  }

  @Test
  void theNewOwnersWritesCostWhatTheyCostWithoutFencing() throws Exception {
    FileSystem successor = process();
    CheckpointFencing.takeOwnership(successor, Q, "driver-2");
    InMemoryRequestCounts c0 = bucket.counts();
    write(successor, "/q/offsets/1", "offsets 1".getBytes(StandardCharsets.UTF_8), false);
    InMemoryRequestCounts small = bucket.counts().minus(c0);
    assertEquals(1, small.total(), "the manifest's conditional PUT that carries the file: " + small);
    assertEquals(1, small.conditional(S3Operation.PUT), small.toString());

    InMemoryRequestCounts c1 = bucket.counts();
    write(successor, "/q/state/0/0/2.delta", filled(LARGE), false);
    InMemoryRequestCounts large = bucket.counts().minus(c1);
    assertEquals(2, large.total(), "data PUT and manifest PUT: " + large);

    InMemoryRequestCounts c2 = bucket.counts();
    successor.mkdirs(new Path("/q/state/0/2"));
    InMemoryRequestCounts mkdir = bucket.counts().minus(c2);
    assertEquals(2, mkdir.total(), "the new manifest and the parent's: " + mkdir);
    assertEquals(2, mkdir.succeeded(S3Operation.PUT), mkdir.toString());

    // the same on a location nobody owns, written by a process that knows no epoch
    FileSystem plain = process();
    plain.mkdirs(new Path("/u/offsets"));
    plain.mkdirs(new Path("/u/state/0/0"));
    InMemoryRequestCounts u0 = bucket.counts();
    write(plain, "/u/offsets/1", "offsets 1".getBytes(StandardCharsets.UTF_8), false);
    assertEquals(small, bucket.counts().minus(u0));
    InMemoryRequestCounts u1 = bucket.counts();
    write(plain, "/u/state/0/0/2.delta", filled(LARGE), false);
    assertEquals(large, bucket.counts().minus(u1));
    InMemoryRequestCounts u2 = bucket.counts();
    plain.mkdirs(new Path("/u/state/0/2"));
    assertEquals(mkdir, bucket.counts().minus(u2));
  }

  /** One PUT per directory; one GET per directory the process has not cached, and one for the root. */
  @Test
  void aTakeoverCostsOnePutPerDirectoryAndTwoInARowEachRaiseTheEpoch() throws Exception {
    int dirs = DIRS.size() + 1;
    FileSystem successor = process();
    InMemoryRequestCounts c0 = bucket.counts();
    assertEquals(2, CheckpointFencing.takeOwnership(successor, Q, "driver-2"));
    InMemoryRequestCounts first = bucket.counts().minus(c0);
    assertEquals(dirs, first.of(S3Operation.PUT), first.toString());
    assertEquals(dirs, first.succeeded(S3Operation.PUT), "none refused: " + first);
    assertEquals(dirs + 1, first.of(S3Operation.GET), "the root's and each directory's, uncached: " + first);
    assertEquals(2 * dirs + 1, first.total(), first.toString());

    // again from the same process: everything cached, one PUT per directory
    InMemoryRequestCounts c1 = bucket.counts();
    assertEquals(3, CheckpointFencing.takeOwnership(successor, Q, "driver-2b"));
    InMemoryRequestCounts second = bucket.counts().minus(c1);
    assertEquals(dirs, second.total(), second.toString());
    assertEquals(3, CheckpointFencing.epoch(successor, Q));

    // the first driver takes it back: its cached copies are stale (refused, read, written), and epoch 4 fences
    // driver-2b
    assertEquals(4, CheckpointFencing.takeOwnership(zombie, Q, "driver-1b"));
    CheckpointFencedException e = assertThrows(CheckpointFencedException.class, () -> write(successor,
        "/q/offsets/1", "x".getBytes(StandardCharsets.UTF_8), false));
    assertEquals(3, e.epoch());
    assertEquals(4, e.newerEpoch());
    assertEquals("driver-1b", e.newerOwnerId());
    write(zombie, "/q/offsets/1", "y".getBytes(StandardCharsets.UTF_8), false);
  }

  /**
   * A manifest PUT the store applied but whose answer was lost: the owner's next write finds its cached ETag
   * stale, reads the manifest, sees its own epoch there (not a newer one) and writes.
   */
  @Test
  void aWriteOfTheOwnerWhoseAnswerWasLostIsNotTakenForATakeover() throws Exception {
    bucket.addFault(FaultRule.failing(S3Operation.PUT).matching("\\.ckpt/dirs/").onNth(1).afterApplying());
    assertThrows(IOException.class, () -> write(zombie, "/q/offsets/1", "1".getBytes(StandardCharsets.UTF_8),
        false));
    bucket.clearFaults();
    InMemoryRequestCounts c0 = bucket.counts();
    write(zombie, "/q/offsets/2", "2".getBytes(StandardCharsets.UTF_8), false);
    InMemoryRequestCounts used = bucket.counts().minus(c0);
    assertEquals(1, used.of(S3Operation.GET), "one fresh read after the refused PUT: " + used);
    assertEquals(2, used.of(S3Operation.PUT), used.toString());
    assertEquals(List.of("0", "1", "2"), names(process(), "/q/offsets"), "the lost answer's write applied");
  }

  /** A process never given an epoch writes as before fencing, and keeps the owner's stamp in what it writes. */
  @Test
  void aProcessThatKnowsNoEpochIsNotFencedAndKeepsTheStamp() throws Exception {
    FileSystem successor = process();
    CheckpointFencing.takeOwnership(successor, Q, "driver-2");
    FileSystem untold = process();
    assertEquals(0, CheckpointFencing.epoch(untold, Q));
    write(untold, "/q/offsets/5", "5".getBytes(StandardCharsets.UTF_8), false);
    fenced("the zombie after the untold writer", () -> write(zombie, "/q/offsets/6",
        "6".getBytes(StandardCharsets.UTF_8), false));
    assertArrayEquals("5".getBytes(StandardCharsets.UTF_8), read(successor, "/q/offsets/5"));
  }

  /**
   * A zombie that keeps writing while the takeover runs: each of its writes either succeeded and is listed, or
   * failed fenced and is not; every write it starts after {@code takeOwnership} returned fails.
   */
  @Test
  void writesRacingATakeoverAreKeptWholeOrRefusedAndNoneSucceedsAfterIt() throws Exception {
    for (int i = 0; i < 20; i++) {
      zombie.mkdirs(new Path("/q/state/0/" + (10 + i))); // more directories: a longer takeover
    }
    FileSystem successor = process();
    List<String> written = java.util.Collections.synchronizedList(new ArrayList<>());
    List<String> refused = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.concurrent.atomic.AtomicLong takeoverDone = new java.util.concurrent.atomic.AtomicLong();
    List<String> startedAfter = java.util.Collections.synchronizedList(new ArrayList<>());
    // the writer's bound is a time, not a count of writes: on a busy machine the takeover, which waits and retries
    // where the zombie changed a manifest first, has outlasted 100,000 writes (about 20 s)
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
    Thread writer = new Thread(() -> {
      for (int i = 0; startedAfter.size() < 20 && System.nanoTime() < deadline; i++) { // 20 writes after the takeover
        // a write at most every half millisecond (a real zombie pays a round trip per write): unpaced, on the
        // in-memory store, its writes to one directory can land between the takeover's read and conditional write
        // of that directory's manifest 20 times running, and the takeover gives up (CasConflictException), which no
        // zombie over a network does
        java.util.concurrent.locks.LockSupport.parkNanos(500_000);
        String path = "/q/state/0/" + (10 + i % 20) + "/z-" + i;
        boolean after = takeoverDone.get() != 0;
        try {
          write(zombie, path, "z".getBytes(StandardCharsets.UTF_8), false);
          written.add(path);
        } catch (CheckpointFencedException e) {
          refused.add(path);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
        if (after) {
          startedAfter.add(path);
        }
      }
    });
    writer.start();
    while (written.size() < 20) {
      Thread.onSpinWait();
    }
    assertEquals(2, CheckpointFencing.takeOwnership(successor, Q, "driver-2"));
    takeoverDone.set(1);
    writer.join(180_000);
    assertEquals(20, startedAfter.size(), "the zombie wrote after the takeover too");
    assertTrue(refused.containsAll(startedAfter), "every write started after the takeover is refused");
    Map<String, Long> listed = listing();
    for (String p : written) {
      assertTrue(listed.containsKey(p), p + " succeeded and is listed");
    }
    for (String p : refused) {
      assertTrue(!listed.containsKey(p), p + " was refused and is not listed");
    }
  }

  private static List<String> names(FileSystem fs, String dir) throws IOException {
    List<String> out = new ArrayList<>();
    for (FileStatus st : fs.listStatus(new Path(dir))) {
      out.add(st.getPath().getName());
    }
    return out;
  }
}
