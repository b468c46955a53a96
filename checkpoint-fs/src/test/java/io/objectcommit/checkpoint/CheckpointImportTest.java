package io.objectcommit.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.CheckpointImport.Result.Outcome;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.testing.FaultRule;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import io.objectcommit.store.testing.InMemoryStoreFactory;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code checkpoint import} on the in-memory store: a checkpoint laid out as Spark lays it out on s3a:// is adopted
 * without a data write (its objects unchanged, only manifests PUT), read back through ckpt://, idempotent, resumed
 * after an interruption; refused when it looks live, lacks a file its query needs, or the listing lags; verify
 * reports an adopted object changed or deleted afterwards, and gc never deletes one.
 */
class CheckpointImportTest {

  private static final AtomicInteger BUCKETS = new AtomicInteger();

  private final String bucketName = "ckpt-unit-import-" + BUCKETS.incrementAndGet();
  private final InMemoryObjectStore bucket = InMemoryObjectStore.register(bucketName);
  private final String source = "s3a://" + bucketName + "/old/q1";
  private final String target = "ckpt://" + bucketName + "/checkpoints/q1";

  private static Configuration conf() {
    Configuration conf = InMemoryStoreFactory.use(new Configuration(false));
    conf.set("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    conf.setBoolean("fs.ckpt.impl.disable.cache", true);
    return conf;
  }

  /** A stopped query's checkpoint after batches 0 to 2: a file source, an aggregation on two partitions. */
  private Map<String, String> stockCheckpoint() throws IOException {
    Map<String, String> files = new LinkedHashMap<>();
    files.put("metadata", "{\"id\":\"5f1c\"}");
    for (int b = 0; b <= 2; b++) {
      files.put("offsets/" + b, "v1\n{}\n{\"logOffset\":" + b + "}");
      files.put("sources/0/" + b, "v1\n{\"path\":\"f" + b + "\"}");
      files.put("commits/" + b, "v1\n{\"nextBatchWatermarkMs\":0}");
      for (int p = 0; p < 2; p++) {
        files.put("state/0/" + p + "/" + (b + 1) + ".delta", "delta " + p + "." + (b + 1));
      }
    }
    files.put("state/0/_metadata/metadata", "{\"operatorId\":0}");
    for (Map.Entry<String, String> f : files.entrySet()) {
      put(f.getKey(), f.getValue());
    }
    bucket.put("old/q1/sources/", Payload.of(new byte[0]), WriteCondition.none()); // an S3A directory marker
    FileSystem.newInstance(URI.create(target), conf()).close(); // the root manifest, once per JVM: not counted below
    return files;
  }

  private void put(String rel, String content) throws IOException {
    bucket.put("old/q1/" + rel, Payload.of(content.getBytes(StandardCharsets.UTF_8)), WriteCondition.none());
  }

  private static final CheckpointImport.Options NOW = new CheckpointImport.Options(false, false, Duration.ZERO);

  private String importInto(String to, CheckpointImport.Options options, CheckpointImport.Result[] result)
      throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new Path(to), conf())) {
      CheckpointImport.Result r = m.importFrom(URI.create(source), options,
          new PrintStream(bytes, true, StandardCharsets.UTF_8));
      if (result != null) {
        result[0] = r;
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private Map<String, ObjectInfo> sourceObjects() throws IOException {
    Map<String, ObjectInfo> m = new TreeMap<>();
    for (String k : bucket.keys("old/")) {
      m.put(k, bucket.head(k).orElseThrow());
    }
    return m;
  }

  @Test
  void adoptsWithoutWritingDataAndReadsBackThroughCkpt() throws Exception {
    Map<String, String> files = stockCheckpoint();
    Map<String, ObjectInfo> before = sourceObjects();
    InMemoryRequestCounts c0 = bucket.counts();
    CheckpointImport.Result[] r = new CheckpointImport.Result[1];
    String out = importInto(target, NOW, r);
    InMemoryRequestCounts used = bucket.counts().minus(c0);

    assertEquals(Outcome.IMPORTED, r[0].outcome(), out);
    assertEquals(files.size(), r[0].files());
    // the tree: q1, offsets, commits, sources, sources/0, state, state/0, state/0/0, state/0/1, state/0/_metadata
    assertEquals(10, r[0].directories());
    assertEquals(10, r[0].manifestsWritten());
    assertTrue(out.contains("plan: s3://" + bucketName + "/old/q1/ -> ckpt://" + bucketName + "/checkpoints/q1: "
        + files.size() + " files"), out);
    assertTrue(out.contains("last committed batch 2; 1 source logs and 2 state stores checked"), out);
    assertEquals(before, sourceObjects(), "the source's objects are not rewritten, none is added or deleted");
    assertEquals(0, used.of(S3Operation.COPY), used.toString());
    assertEquals(0, used.of(S3Operation.DELETE) + used.of(S3Operation.BULK_DELETE), used.toString());
    // 10 manifests, the new parent directory "checkpoints" (its manifest and the root's), the link: 13 PUTs, none
    // of a data object
    assertEquals(13, used.of(S3Operation.PUT), used.toString());
    assertEquals(1, used.of(S3Operation.LIST), used.toString());
    assertEquals(2, used.of(S3Operation.HEAD), "the entries after the newest batch, looked up: " + used);

    Configuration conf = conf();
    try (FileSystem fs = FileSystem.newInstance(URI.create(target), conf)) {
      for (Map.Entry<String, String> f : files.entrySet()) {
        byte[] expected = f.getValue().getBytes(StandardCharsets.UTF_8);
        byte[] read = new byte[expected.length];
        try (FSDataInputStream in = fs.open(new Path(target + "/" + f.getKey()))) {
          in.readFully(read);
          assertEquals(-1, in.read());
        }
        assertArrayEquals(expected, read, f.getKey());
      }
      assertTrue(fs.getFileStatus(new Path(target + "/sources")).isDirectory());
      assertEquals(3, fs.listStatus(new Path(target + "/offsets")).length);
    }
    for (String k : bucket.keys("")) {
      assertTrue(k.startsWith("old/q1/") || k.startsWith(".ckpt/dirs/"), "only manifests are new: " + k);
    }

    // a second run: the same import, nothing written
    InMemoryRequestCounts c1 = bucket.counts();
    String again = importInto(target, NOW, r);
    assertEquals(Outcome.ALREADY_IMPORTED, r[0].outcome(), again);
    assertEquals(0, bucket.counts().minus(c1).of(S3Operation.PUT), again);

    // gc never deletes an adopted object, verify finds each intact
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new Path("ckpt://" + bucketName + "/"), conf)) {
      PrintStream devNull = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
      m.gc(Duration.ZERO, false, devNull);
      assertEquals(before, sourceObjects(), "gc left every adopted object");
      assertEquals(List.of(), m.verify(devNull));
    }
  }

  @Test
  void verifyReportsAnAdoptedObjectChangedOrDeletedAfterwards() throws Exception {
    stockCheckpoint();
    importInto(target, NOW, null);
    bucket.delete("old/q1/state/0/1/1.delta"); // the old query's state maintenance, run again on s3a://
    put("commits/2", "v1\n{\"nextBatchWatermarkMs\":7}"); // the same size, other bytes
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new Path(target), conf())) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      List<String> problems = m.verify(new PrintStream(bytes, true, StandardCharsets.UTF_8));
      assertEquals(2, problems.size(), bytes.toString(StandardCharsets.UTF_8));
      assertTrue(problems.get(0).startsWith("/checkpoints/q1/commits/2: data object s3://" + bucketName
          + "/old/q1/commits/2 has ETag "), problems.get(0));
      assertTrue(problems.get(0).contains("adopted by checkpoint import"), problems.get(0));
      assertTrue(problems.get(1).startsWith("/checkpoints/q1/state/0/1/1.delta: data object s3://" + bucketName
          + "/old/q1/state/0/1/1.delta is missing (adopted by checkpoint import"), problems.get(1));
    }
  }

  @Test
  void anInterruptedImportResumesWithoutRewritingWhatItWrote() throws Exception {
    stockCheckpoint();
    bucket.addFault(FaultRule.failing(S3Operation.PUT).matching("^\\.ckpt/dirs/import-").onNth(6));
    assertThrows(IOException.class, () -> importInto(target, NOW, null));
    bucket.clearFaults();
    try (FileSystem fs = FileSystem.newInstance(URI.create(target), conf())) {
      assertFalse(fs.exists(new Path(target)), "nothing is visible before the link");
    }
    CheckpointImport.Result[] r = new CheckpointImport.Result[1];
    String out = importInto(target, NOW, r);
    assertEquals(Outcome.IMPORTED, r[0].outcome(), out);
    assertEquals(5, r[0].manifestsWritten(), "the first run wrote 5 of the 10: " + out);
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new Path(target), conf())) {
      assertEquals(List.of(), m.verify(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
    }
  }

  @Test
  void refusesALiveLookingSourceUnlessForced() throws Exception {
    stockCheckpoint();
    put("offsets/3", "v1\n{}\n{\"logOffset\":3}");
    CheckpointImportException live = assertThrows(CheckpointImportException.class,
        () -> importInto(target, CheckpointImport.Options.defaults(), null));
    assertTrue(live.forceable());
    assertEquals(2, live.reasons().size(), live.getMessage());
    assertTrue(live.reasons().get(0).endsWith("old/q1/: offsets/3 has no commits/3: the query is running batch 3,"
        + " or was stopped or failed in its middle (Spark then runs it again)"), live.getMessage());
    assertTrue(live.reasons().get(1).matches("s3://" + bucketName + "/old/q1/.* was written \\d+ s ago, less than"
        + " the idle time \\(300 s\\) a stopped query's checkpoint must have"), live.getMessage());
    assertTrue(live.getMessage().contains("--force"), live.getMessage());
    assertTrue(bucket.keys(".ckpt/dirs/import-").isEmpty(), "nothing written");

    CheckpointImport.Result[] r = new CheckpointImport.Result[1];
    String out = importInto(target, new CheckpointImport.Options(false, true, Duration.ofMinutes(5)), r);
    assertEquals(Outcome.IMPORTED, r[0].outcome(), out);
    assertEquals(2, r[0].warnings().size());
    assertTrue(out.contains("WARNING (--force): the source looks live: "), out);
  }

  @Test
  void refusesACheckpointLackingWhatItsQueryNeedsAndNoticesALaggingListing() throws Exception {
    stockCheckpoint();
    bucket.delete("old/q1/state/0/1/2.delta");
    bucket.hideFromListing("old/q1/offsets/1");
    CheckpointImportException e = assertThrows(CheckpointImportException.class, () -> importInto(target, NOW, null));
    assertFalse(e.forceable());
    assertEquals(List.of("s3://" + bucketName + "/old/q1/offsets/1 exists but the listing did not show it: the"
        + " listing lags behind the store; run the import again later",
        "s3://" + bucketName + "/old/q1/state/0/1/2.delta is missing: it is needed for state version 2: version 3,"
            + " which the next batch loads, is rebuilt from the deltas down to a snapshot or to version 1"),
        e.reasons());
    assertThrows(CheckpointImportException.class,
        () -> importInto(target, new CheckpointImport.Options(false, true, Duration.ZERO), null),
        "--force does not override a missing file");

    bucket.showAllInListing();
    put("state/0/1/2.snapshot", "snapshot");
    put("commits/3", "v1\n{}"); // hidden newer entries are looked up: here the listing shows it, offsets/3 lacks
    CheckpointImportException missing = assertThrows(CheckpointImportException.class,
        () -> importInto(target, NOW, null));
    assertTrue(missing.getMessage().contains("old/q1/offsets/3 is missing"), missing.getMessage());
  }

  @Test
  void dryRunPrintsThePlanAndWritesNothing() throws Exception {
    stockCheckpoint();
    InMemoryRequestCounts c0 = bucket.counts();
    CheckpointImport.Result[] r = new CheckpointImport.Result[1];
    String out = importInto(target, new CheckpointImport.Options(true, false, Duration.ZERO), r);
    assertEquals(Outcome.PLANNED, r[0].outcome());
    assertTrue(out.contains("requests: 1 LIST and 2 HEAD done; to write 10 manifests"), out);
    assertTrue(out.contains("dry run: nothing written"), out);
    assertEquals(0, bucket.counts().minus(c0).of(S3Operation.PUT), out);
  }

  @Test
  void refusesATargetThatExists() throws Exception {
    stockCheckpoint();
    try (FileSystem fs = FileSystem.newInstance(URI.create(target), conf())) {
      fs.mkdirs(new Path(target));
    }
    CheckpointImportException e = assertThrows(CheckpointImportException.class, () -> importInto(target, NOW, null));
    assertTrue(e.getMessage().contains("exists (not as this import of s3://" + bucketName + "/old/q1/)"),
        e.getMessage());
  }

  @Test
  void gcNeverDeletesAnAdoptedObjectEvenOneWhoseKeyLooksLikeOurs() throws Exception {
    stockCheckpoint();
    put("state/0/_metadata/odd~0123456789abcdef", "a name gc takes for a data object of ours");
    // written a minute ago: gc with a minimum age of zero takes what is older than the moment it starts
    bucket.setClock(() -> System.currentTimeMillis() - 60_000);
    bucket.put("elsewhere/odd~0123456789abcdef", Payload.of(new byte[1]), WriteCondition.none());
    bucket.setClock(System::currentTimeMillis);
    importInto(target, NOW, null);
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new Path("ckpt://" + bucketName + "/"), conf())) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      List<String> deleted = m.gc(Duration.ZERO, false, new PrintStream(bytes, true, StandardCharsets.UTF_8));
      assertEquals(List.of("elsewhere/odd~0123456789abcdef"), deleted, "the unreferenced one only");
    }
    assertTrue(bucket.exists("old/q1/state/0/_metadata/odd~0123456789abcdef"));
  }

  /**
   * The requests of an import of a checkpoint of 200 partitions x 100 batches (a file source compacted every 10
   * batches, Spark's default state store with a snapshot every 10 versions, as its maintenance leaves them): they
   * grow with the directories (one manifest PUT each) and the LIST pages, not with the files.
   */
  @Test
  void requestsOfAnImportOf200PartitionsBy100Batches() throws Exception {
    int partitions = 200;
    int batches = 100;
    Payload small = Payload.of(new byte[64]);
    put("metadata", "{}");
    long files = 1;
    for (int b = 0; b < batches; b++) {
      for (String log : List.of("offsets/", "commits/")) {
        bucket.put("old/q1/" + log + b, small, WriteCondition.none());
      }
      bucket.put("old/q1/sources/0/" + b + ((b + 1) % 10 == 0 ? ".compact" : ""), small, WriteCondition.none());
      files += 3;
      for (int p = 0; p < partitions; p++) {
        bucket.put("old/q1/state/0/" + p + "/" + (b + 1) + ".delta", small, WriteCondition.none());
        files++;
        if ((b + 1) % 10 == 0) {
          bucket.put("old/q1/state/0/" + p + "/" + (b + 1) + ".snapshot", small, WriteCondition.none());
          files++;
        }
      }
    }
    FileSystem.newInstance(URI.create(target), conf()).close();
    InMemoryRequestCounts c0 = bucket.counts();
    CheckpointImport.Result[] r = new CheckpointImport.Result[1];
    String out = importInto(target, NOW, r);
    InMemoryRequestCounts used = bucket.counts().minus(c0);
    assertEquals(files, r[0].files(), out);
    assertEquals(22_301, files);
    // q1, offsets, commits, sources, sources/0, state, state/0 and its 200 partitions
    assertEquals(207, r[0].directories(), out);
    assertEquals(23, used.of(S3Operation.LIST), "one per 1,000 keys: " + used);
    assertEquals(2, used.of(S3Operation.HEAD), used.toString());
    assertEquals(207 + 3, used.of(S3Operation.PUT), used.toString());
    assertEquals(23 + 2 + 210 + 1 + 1, used.total(), "and one GET of the target's parent, the bucket checked when"
        + " the store opens: " + used);
    assertTrue(out.contains("200 state stores checked"), out);
  }
}
