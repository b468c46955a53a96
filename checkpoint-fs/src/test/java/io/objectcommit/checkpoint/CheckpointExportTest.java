package io.objectcommit.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.CheckpointExport.Result.Outcome;
import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.testing.FaultRule;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import io.objectcommit.store.testing.InMemoryStoreFactory;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code checkpoint export} on the in-memory store: a checkpoint adopted by an import and continued through ckpt://
 * is written back as a plain checkpoint, by server-side copies only (no PUT, no GET of data), none where the object
 * already has its name; resumed after an interruption with {@code metadata} copied last; refused when the query looks
 * live, lacks a file, or the target holds other objects; an adopted object changed behind our back is not copied.
 */
class CheckpointExportTest {

  private static final AtomicInteger BUCKETS = new AtomicInteger();
  private static final CheckpointImport.Options NOW = new CheckpointImport.Options(false, false, Duration.ZERO);

  private final String bucketName = "ckpt-unit-export-" + BUCKETS.incrementAndGet();
  private final InMemoryObjectStore bucket = InMemoryObjectStore.register(bucketName);
  private final String source = "s3a://" + bucketName + "/old/q1";
  private final String location = "ckpt://" + bucketName + "/checkpoints/q1";

  private static Configuration conf() {
    Configuration conf = InMemoryStoreFactory.use(new Configuration(false));
    conf.set("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    conf.setBoolean("fs.ckpt.impl.disable.cache", true);
    return conf;
  }

  /** A stock checkpoint after batches 0 to 2 at old/q1, imported into the location. */
  private Map<String, String> importedCheckpoint() throws IOException {
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
      bucket.put("old/q1/" + f.getKey(), Payload.of(bytes(f.getValue())), WriteCondition.none());
    }
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new Path(location), conf())) {
      m.importFrom(URI.create(source), NOW, new PrintStream(OutputStream.nullOutputStream()));
    }
    return files;
  }

  /** Batch 3 run through ckpt://: its offsets, state files and commit, as the query writes them. */
  private void runBatch3(Map<String, String> files, boolean commit) throws IOException {
    Map<String, String> batch = new LinkedHashMap<>();
    batch.put("offsets/3", "v1\n{}\n{\"logOffset\":3}");
    batch.put("sources/0/3", "v1\n{\"path\":\"f3\"}");
    batch.put("state/0/0/4.delta", "delta 0.4");
    batch.put("state/0/1/4.delta", "delta 1.4");
    if (commit) {
      batch.put("commits/3", "v1\n{\"nextBatchWatermarkMs\":0}");
    }
    try (FileSystem fs = FileSystem.newInstance(URI.create(location), conf())) {
      for (Map.Entry<String, String> f : batch.entrySet()) {
        try (OutputStream out = fs.create(new Path(location + "/" + f.getKey()), false)) {
          out.write(bytes(f.getValue()));
        }
      }
    }
    files.putAll(batch);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private String export(String to, CheckpointImport.Options options, CheckpointExport.Result[] result)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new Path(location), conf())) {
      CheckpointExport.Result r = m.exportTo(URI.create(to), options,
          new PrintStream(out, true, StandardCharsets.UTF_8));
      if (result != null) {
        result[0] = r;
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private void assertPlainCheckpoint(String prefix, Map<String, String> files) {
    for (Map.Entry<String, String> f : files.entrySet()) {
      assertArrayEquals(bytes(f.getValue()), bucket.bytes(prefix + f.getKey()), prefix + f.getKey());
    }
    assertEquals(files.size(), bucket.keys(prefix).size(), "nothing else under " + prefix + ": " + bucket.keys(prefix));
  }

  /**
   * The adopted files are copied server-side; batch 3's five files, written through the file system, are small
   * enough to be kept in their directories' manifests (the default): one PUT of their bytes each.
   */
  @Test
  void aNewPrefixGetsOneServerSideCopyPerDataObjectAndOnePutPerInlineFile() throws Exception {
    Map<String, String> files = importedCheckpoint();
    runBatch3(files, true);
    InMemoryRequestCounts c0 = bucket.counts();
    CheckpointExport.Result[] r = new CheckpointExport.Result[1];
    String out = export("s3a://" + bucketName + "/plain/q1", NOW, r);
    InMemoryRequestCounts used = bucket.counts().minus(c0);

    assertEquals(Outcome.EXPORTED, r[0].outcome(), out);
    assertEquals(files.size(), r[0].files());
    assertEquals(files.size(), r[0].copied());
    assertEquals(0, r[0].inPlace());
    assertTrue(out.contains("last committed batch 3; 1 source logs and 2 state stores checked; " + files.size()
        + " to copy"), out);
    assertTrue(out.contains("to send " + (files.size() - 5) + " COPY (server-side: no data through this process)"
        + " and 5 PUT (files kept in their directory's manifest)"), out);
    assertPlainCheckpoint("plain/q1/", files);
    assertEquals(files.size() - 5, used.of(S3Operation.COPY), used.toString());
    assertEquals(5, used.of(S3Operation.PUT), "batch 3's files: " + used);
    assertEquals(0, used.of(S3Operation.DELETE) + used.of(S3Operation.BULK_DELETE), "nothing deleted: " + used);
    assertEquals(1, used.of(S3Operation.LIST), "the target's listing: " + used);
    assertEquals(0, used.of(S3Operation.HEAD), used.toString());

    InMemoryRequestCounts c1 = bucket.counts();
    assertTrue(export("s3a://" + bucketName + "/plain/q1", NOW, r).contains("already exported"));
    assertEquals(Outcome.ALREADY_EXPORTED, r[0].outcome());
    assertEquals(files.size(), r[0].alreadyThere());
    InMemoryRequestCounts again = bucket.counts().minus(c1);
    assertEquals(0, again.of(S3Operation.COPY) + again.of(S3Operation.PUT), "a second run writes nothing: " + again);
  }

  @Test
  void anObjectOfAnInlineFilesNameWithOtherBytesRefusesTheExport() throws Exception {
    Map<String, String> files = importedCheckpoint();
    runBatch3(files, true);
    String offsets3 = files.get("offsets/3");
    byte[] other = bytes(offsets3);
    other[other.length - 1] ^= 1;
    bucket.put("plain/q1/offsets/3", Payload.of(other), WriteCondition.none());
    CheckpointExportException e = assertThrows(CheckpointExportException.class,
        () -> export("s3a://" + bucketName + "/plain/q1", NOW, null));
    assertTrue(e.reasons().stream().anyMatch(m -> m.contains("offsets/3 exists and is not a copy of the checkpoint's"
        + " offsets/3")), e.getMessage());
  }

  @Test
  void backWhereItWasImportedFromOnlyTheNewFilesAreCopied() throws Exception {
    Map<String, String> files = importedCheckpoint();
    CheckpointExport.Result[] r = new CheckpointExport.Result[1];
    export(source, NOW, r);
    assertEquals(Outcome.ALREADY_EXPORTED, r[0].outcome(), "every object already has its name");
    assertEquals(files.size(), r[0].inPlace());

    runBatch3(files, true);
    InMemoryRequestCounts c0 = bucket.counts();
    export(source, NOW, r);
    assertEquals(Outcome.EXPORTED, r[0].outcome());
    assertEquals(5, r[0].copied(), "batch 3's five files");
    assertEquals(files.size() - 5, r[0].inPlace());
    assertEquals(5, bucket.counts().minus(c0).of(S3Operation.PUT), "batch 3's files are small: kept inline");
    assertPlainCheckpoint("old/q1/", files);
  }

  @Test
  void anInterruptedExportLeavesNoMetadataAndResumes() throws Exception {
    Map<String, String> files = importedCheckpoint();
    bucket.addFault(FaultRule.failing(S3Operation.COPY).onNth(10));
    assertThrows(IOException.class, () -> export("s3a://" + bucketName + "/plain/q1", NOW, null));
    bucket.clearFaults();
    assertEquals(9, bucket.keys("plain/q1/").size(), bucket.keys("plain/q1/").toString());
    assertNull(bucket.bytes("plain/q1/metadata"), "metadata is copied last: a partial export has none");
    assertFalse(bucket.exists("plain/q1/commits/0"), "commits after the state, sources and offsets");

    CheckpointExport.Result[] r = new CheckpointExport.Result[1];
    InMemoryRequestCounts c0 = bucket.counts();
    export("s3a://" + bucketName + "/plain/q1", NOW, r);
    assertEquals(Outcome.EXPORTED, r[0].outcome());
    assertEquals(9, r[0].alreadyThere());
    assertEquals(files.size() - 9, r[0].copied());
    assertEquals(files.size() - 9, bucket.counts().minus(c0).of(S3Operation.COPY));
    assertPlainCheckpoint("plain/q1/", files);
  }

  @Test
  void aQueryThatLooksLiveIsRefusedUnlessForced() throws Exception {
    Map<String, String> files = importedCheckpoint();
    runBatch3(files, false);
    CheckpointExportException e = assertThrows(CheckpointExportException.class,
        () -> export("s3a://" + bucketName + "/plain/q1", NOW, null));
    assertTrue(e.forceable(), e.getMessage());
    assertTrue(e.getMessage().contains("offsets/3"), e.getMessage());
    assertTrue(bucket.keys("plain/").isEmpty(), "nothing copied");

    CheckpointExport.Result[] r = new CheckpointExport.Result[1];
    export("s3a://" + bucketName + "/plain/q1", new CheckpointImport.Options(false, true, Duration.ZERO), r);
    assertEquals(1, r[0].warnings().size(), r[0].warnings().toString());
    CheckpointExportException idle = assertThrows(CheckpointExportException.class,
        () -> export("s3a://" + bucketName + "/plain/q2", CheckpointImport.Options.defaults(), null));
    assertTrue(idle.forceable());
    assertTrue(idle.getMessage().contains("idle time (300 s)"), idle.getMessage());
    assertTrue(bucket.exists("plain/q1/offsets/3"), "with --force the live checkpoint was exported");
    assertTrue(bucket.keys("plain/q2/").isEmpty());
  }

  @Test
  void aTargetWithOtherObjectsIsRefused() throws Exception {
    importedCheckpoint();
    bucket.put("plain/q1/offsets/7", Payload.of(bytes("someone else's")), WriteCondition.none());
    bucket.put("plain/q1/metadata", Payload.of(bytes("{\"id\":\"other\"}")), WriteCondition.none());
    CheckpointExportException e = assertThrows(CheckpointExportException.class,
        () -> export("s3a://" + bucketName + "/plain/q1", NOW, null));
    assertFalse(e.forceable());
    assertEquals(3, e.reasons().size(), e.getMessage());
    assertTrue(e.reasons().get(0).contains("s3://" + bucketName + "/plain/q1/offsets/7 is not a file of the"
        + " checkpoint"), e.getMessage());
    assertTrue(e.reasons().get(1).contains("plain/q1/metadata exists and is not a copy"), e.getMessage());
    assertEquals(List.of("plain/q1/metadata", "plain/q1/offsets/7"), bucket.keys("plain/q1/"), "nothing copied");

    assertThrows(IllegalArgumentException.class, () -> export("s3a://another-bucket/plain/q1", NOW, null));
    assertThrows(IllegalArgumentException.class, () -> export("file:///tmp/q1", NOW, null));
  }

  @Test
  void anAdoptedObjectChangedBehindOurBackIsNotCopied() throws Exception {
    importedCheckpoint();
    bucket.put("old/q1/state/0/1/2.delta", Payload.of(bytes("rewritten by the old query")), WriteCondition.none());
    ObjectChangedException e = assertThrows(ObjectChangedException.class,
        () -> export("s3a://" + bucketName + "/plain/q1", NOW, null));
    assertTrue(e.getMessage().contains("old/q1/state/0/1/2.delta"), e.getMessage());
    assertFalse(bucket.exists("plain/q1/state/0/1/2.delta"));
    assertFalse(bucket.exists("plain/q1/metadata"));
  }

  @Test
  void aDryRunCopiesNothing() throws Exception {
    Map<String, String> files = importedCheckpoint();
    InMemoryRequestCounts c0 = bucket.counts();
    CheckpointExport.Result[] r = new CheckpointExport.Result[1];
    String out = export("s3a://" + bucketName + "/plain/q1", new CheckpointImport.Options(true, false,
        Duration.ZERO), r);
    assertEquals(Outcome.PLANNED, r[0].outcome());
    assertEquals(files.size(), r[0].copied());
    assertTrue(out.contains("to send " + files.size() + " COPY"), out);
    assertTrue(out.contains("dry run: nothing copied"), out);
    assertEquals(0, bucket.counts().minus(c0).of(S3Operation.COPY));
  }
}
