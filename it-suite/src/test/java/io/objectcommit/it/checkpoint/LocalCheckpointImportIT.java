package io.objectcommit.it.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.CheckpointImport;
import io.objectcommit.checkpoint.CheckpointImport.Result.Outcome;
import io.objectcommit.checkpoint.CheckpointImportException;
import io.objectcommit.checkpoint.CheckpointMaintenance;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.CountingQuery;
import io.objectcommit.it.faults.ObjectCommitCheckpoints;
import io.objectcommit.it.faults.StreamInput;
import io.objectcommit.testsupport.TestTags;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code objectcommit checkpoint import file:///dir ckpt://efs/path} on a checkpoint written by stock Spark on
 * {@code file://} (Spark's default checkpoint manager, the default state store or RocksDB with changelog
 * checkpointing; a file source and a count by key), the local-path backend's root on the same file system (the
 * EFS/NFS stand-in): refused while a batch is in flight; after the query stopped, every file hard-linked (the same
 * inode under the target, the source's files unchanged, Hadoop's {@code .crc} side files left out), a second run
 * writes nothing; the same query restarted on {@code ckpt://} with the {@code ckpt} settings continues with the next
 * batch id and exact counts, and the source still holds the stock checkpoint as it was.
 */
@Tag(TestTags.COMPONENT)
class LocalCheckpointImportIT {

  private static final String ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";

  private static volatile CountDownLatch inBatch3;
  private static volatile CountDownLatch releaseBatch3;

  private static String run(Configuration conf, String location, CheckpointImport.Options options,
      CheckpointImport.Result[] result, URI source) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new org.apache.hadoop.fs.Path(location), conf)) {
      result[0] = m.importFrom(source, options, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /** Every regular file under {@code dir} with its inode, size and modification time. */
  private static Map<String, String> files(Path dir) throws IOException {
    Map<String, String> m = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(Files::isRegularFile).collect(Collectors.toList())) {
        m.put(dir.relativize(p).toString(), String.valueOf(new TreeMap<>(Files.readAttributes(p,
            "unix:ino,size,lastModifiedTime"))));
      }
    }
    return m;
  }

  /** Hadoop's checksum side file {@code .NAME.crc} (not Spark 4.1's checkpoint checksum files, which are imported). */
  private static boolean isHadoopChecksum(String rel) {
    String name = Path.of(rel).getFileName().toString();
    return name.startsWith(".") && name.endsWith(".crc");
  }

  @ParameterizedTest(name = "{0} state store")
  @ValueSource(strings = {"hdfs", "rocksdb"})
  void aStockFileCheckpointIsHardLinkedAndItsQueryResumesExactlyOnCkpt(String stateStore, @TempDir Path input,
      @TempDir Path disk) throws Exception {
    Map<String, String> stateConf = new HashMap<>();
    if ("rocksdb".equals(stateStore)) {
      stateConf.put("spark.sql.streaming.stateStore.providerClass", ROCKSDB);
      stateConf.put("spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled", "true");
    }
    inBatch3 = new CountDownLatch(1);
    releaseBatch3 = new CountDownLatch(1);
    StreamInput in = new StreamInput(input);
    Path old = Files.createDirectories(disk.resolve("old/q1"));
    Path efs = Files.createDirectories(disk.resolve("efs"));
    URI source = old.toUri();
    String target = "ckpt://efs/ckpt/q1";
    Map<String, String> ckptConf = new HashMap<>(ObjectCommitCheckpoints.local(efs).sparkConf());
    Configuration conf = new Configuration();
    ckptConf.forEach((k, v) -> {
      if (k.startsWith("spark.hadoop.")) {
        conf.set(k.substring("spark.hadoop.".length()), v);
      }
    });
    CheckpointImport.Options idleNow = new CheckpointImport.Options(false, false, Duration.ZERO);
    CheckpointImport.Result[] result = new CheckpointImport.Result[1];

    // 1. Stock Spark on file:// (no ckpt setting): batches 0 to 2, then batch 3 held in flight.
    try (SparkSession spark = SparkSessions.local("import-local-stock", "local[2]", Map.of(), stateConf)) {
      CountingQuery.clear();
      StreamingQuery q = CountingQuery.start(spark, input, source.toString(), id -> {
        if (id == 3) {
          inBatch3.countDown();
          releaseBatch3.await(120, TimeUnit.SECONDS);
        }
      });
      try {
        for (int i = 0; i < 3; i++) {
          in.addFile(i);
        }
        q.processAllAvailable();
        in.addFile(3);
        assertTrue(inBatch3.await(120, TimeUnit.SECONDS), "batch 3 runs");
        CheckpointImportException live = assertThrows(CheckpointImportException.class,
            () -> run(conf, target, idleNow, result, source));
        assertEquals(List.of(old.toRealPath() + "/: offsets/3 has no commits/3: the query is running batch 3, or was"
            + " stopped or failed in its middle (Spark then runs it again)"), live.reasons(), live.getMessage());
        assertTrue(live.forceable());
        releaseBatch3.countDown();
        q.processAllAvailable();
      } finally {
        releaseBatch3.countDown();
        q.stop();
      }
      assertTrue(q.exception().isEmpty(), String.valueOf(q.exception()));
      assertEquals(List.of(0L, 1L, 2L, 3L), CountingQuery.batches());
      assertEquals(StreamInput.expectedCounts(4), CountingQuery.lastCounts());
    }
    assertFalse(Files.exists(efs.resolve("ckpt")), "the refused import wrote nothing");

    // 2. The import: hard links, nothing of the source changed.
    Map<String, String> before = files(old);
    String stateFile = "rocksdb".equals(stateStore) ? "/4.changelog" : "/4.delta";
    assertEquals(4, before.keySet().stream().filter(k -> k.endsWith(stateFile)).count(),
        "each partition's state of batch 3 as " + stateStore + " writes it: " + before.keySet());
    assertTrue(before.keySet().stream().anyMatch(LocalCheckpointImportIT::isHadoopChecksum), "Hadoop's local file"
        + " system writes"
        + " .crc side files: " + before.keySet());
    String out = run(conf, target, idleNow, result, source);
    assertEquals(Outcome.IMPORTED, result[0].outcome(), out);
    assertEquals(before, files(old), "no file of the source rewritten, added or deleted");
    Path dst = efs.resolve("ckpt/q1");
    Map<String, String> linked = files(dst);
    Map<String, String> expected = new TreeMap<>(before);
    expected.keySet().removeIf(LocalCheckpointImportIT::isHadoopChecksum);
    assertEquals(expected, linked, "every file but the .crc side files, by the same inode: hard links, no copy");
    assertEquals(linked.size(), result[0].files(), out);
    assertEquals(linked.size(), result[0].manifestsWritten(), out);
    System.out.println("checkpoint import of a stock file:// checkpoint (" + stateStore + "):\n" + out);

    String again = run(conf, target, idleNow, result, source);
    assertEquals(Outcome.ALREADY_IMPORTED, result[0].outcome(), again);
    assertEquals(linked, files(dst));

    // 3. The same query on ckpt:// (local-path backend) with the ckpt settings: batch 4 next, exact counts.
    ckptConf.putAll(stateConf);
    try (SparkSession spark = SparkSessions.local("import-local-resumed", "local[2]", Map.of(), ckptConf)) {
      CountingQuery.clear();
      StreamingQuery q = CountingQuery.start(spark, input, target);
      try {
        in.addFile(4);
        q.processAllAvailable();
      } finally {
        q.stop();
      }
      assertTrue(q.exception().isEmpty(), String.valueOf(q.exception()));
      assertEquals(List.of(4L), CountingQuery.batches(), "continues with the next batch, none again");
      assertEquals(StreamInput.expectedCounts(5), CountingQuery.lastCounts(), "with its state");
    }
    assertTrue(Files.exists(dst.resolve("commits/4")), "batch 4 committed under the ckpt:// location");
    assertFalse(Files.exists(old.resolve("commits/4")), "and not in the source");
    assertEquals(before, files(old), "the source is still the stock checkpoint of batch 3, as it was");
  }
}
