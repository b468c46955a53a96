package io.objectcommit.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3Store;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.SparkStandaloneCluster;
import io.objectcommit.testsupport.SparkSubmission;
import io.objectcommit.testsupport.StoreHost;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stateful query (file source, one file per micro-batch, {@code groupBy(value).count()}) checkpointed on
 * {@code ckpt://} (S3 backend) on a standalone cluster, whose driver is SIGKILLed three times at seeded random
 * points (after a seeded number of batches, plus a seeded delay) and restarted; with Spark's default state store
 * and with RocksDB. Checked without Spark: every micro-batch's complete result (written by the query's
 * {@code foreachBatch}, a re-run batch replacing its file) equals the counts of the files up to it, no batch
 * beyond the input, then {@code objectcommit checkpoint verify} (the bundle's command, run as a user runs it with
 * the cluster's Spark jars) is clean. Seed: {@code -Dobjectcommit.cluster.seed=N} replaces the listed ones.
 *
 * <p>The store is moto 5.2.5 (test-support {@link StoreHost}), not LocalStack: a driver killed in the middle of a
 * PUT that overwrites an object (a manifest's {@code If-Match} write) leaves LocalStack 2026.3.0 with that object
 * emptied (it answers 500 to the cut-off PUT, then serves the old length with no body: "Too little data for
 * declared Content-Length" in its log), which real S3 never does (a PUT is atomic). moto keeps the old object.
 * On this loaded machine moto fails one round in twelve of the store check's racing {@code If-Match} writers
 * (docs/stores.md: "rarely"), and the check then refuses it; the query has one writer per manifest, so the runs
 * set {@code conditional-writes=assume} for the test bucket only (its per-bucket key): the one setting that
 * differs from a user's, because of the test double.
 */
@S3IntegrationTest
@Tag("cluster")
class CheckpointClusterIT {

  private static final Logger LOG = LoggerFactory.getLogger(CheckpointClusterIT.class);
  private static final int FILES = 8;
  private static final int KILLS = 3;
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(6);
  private static final String ROCKSDB =
      "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";
  private static SparkStandaloneCluster cluster;
  private static StoreHost store;
  private static Path app;

  @BeforeAll
  static void startCluster() throws IOException {
    store = StoreHost.start(S3Store.MOTO, ClusterJobs.workDir().resolve("stores"));
    cluster = ClusterJobs.startCluster();
    app = ClusterJobs.app();
  }

  @AfterAll
  static void stopCluster() {
    if (store != null) {
      store.close();
    }
    if (cluster != null) {
      cluster.close();
      assertEquals(List.of(), cluster.liveProcesses().stream().map(SparkStandaloneCluster::commandLine)
          .collect(Collectors.toList()), "processes of the cluster left after it stopped");
    }
  }

  /** In every build (about 250 s of CI's budget); the RocksDB case, as long again, in the full set. */
  @Test
  void driverKilledThreeTimesCountsExactDefaultStateStore() throws Exception {
    driverKilledThreeTimes("default", 17);
  }

  @Test
  @Tag(ClusterJobs.FULL_SET)
  void driverKilledThreeTimesCountsExactRocksDb() throws Exception {
    driverKilledThreeTimes("rocksdb", 29);
  }

  private void driverKilledThreeTimes(String stateStore, long listedSeed) throws Exception {
    try (S3TestBucket bucket = S3TestBucket.create(store.endpoint(), "cluster-" + stateStore, null)) {
      run(stateStore, listedSeed, bucket);
    }
  }

  private void run(String stateStore, long listedSeed, S3TestBucket bucket) throws Exception {
    long seed = Long.getLong("objectcommit.cluster.seed", listedSeed);
    Random random = new Random(seed);
    long t0 = System.nanoTime();
    String name = "stream-" + stateStore;
    Path dir = Files.createDirectories(cluster.dir().resolve("scenarios").resolve(name + "-" + System.currentTimeMillis()));
    Path input = writeInput(Files.createDirectories(dir.resolve("input")));
    Path output = Files.createDirectories(dir.resolve("output"));
    Path markers = Files.createDirectories(dir.resolve("markers"));
    String checkpoint = bucket.uri("ckpt", "checkpoints/" + name);
    List<String> settings = new ArrayList<>(List.of(
        "spark.hadoop.fs.ckpt.impl=io.objectcommit.checkpoint.CheckpointFileSystem",
        "spark.hadoop.fs.AbstractFileSystem.ckpt.impl=io.objectcommit.checkpoint.CheckpointFs",
        "spark.sql.streaming.checkpointFileManagerClass=io.objectcommit.checkpoint.CheckpointFileManagerImpl",
        "spark.sql.shuffle.partitions=4"));
    if (stateStore.equals("rocksdb")) {
      settings.add("spark.sql.streaming.stateStore.providerClass=" + ROCKSDB);
    }
    settings.add("spark.hadoop.fs.objectcommit.bucket." + bucket.name() + ".conditional-writes=assume");
    List<String> options = ClusterJobs.options(bucket, settings);
    List<String> args = List.of("stream", checkpoint, input.toString(), output.toString(), markers.toString());

    List<String> kills = new ArrayList<>();
    int target = 0;
    for (int k = 0; k < KILLS; k++) {
      target = Math.min(FILES - 1, target + 1 + random.nextInt(2));
      long delayMs = random.nextInt(1500);
      try (SparkSubmission run = cluster.submit(name + "-run" + k, options, app, args)) {
        long deadline = System.nanoTime() + RUN_TIMEOUT.toNanos();
        while (batchFiles(output) < target && run.isRunning() && System.nanoTime() < deadline) {
          Thread.sleep(50);
        }
        Thread.sleep(delayMs);
        assertTrue(run.isRunning(), "run " + k + " ended before its kill point (" + target + " batches + "
            + delayMs + " ms): " + run.logTail(30));
        int before = batchFiles(output);
        assertTrue(run.killDriver(), "driver of run " + k + " was alive");
        kills.add("after batch file " + before + " (target " + target + " + " + delayMs + " ms)");
        LOG.info("{} seed {}: driver of run {} SIGKILLed with {} batch results written", name, seed, k, before);
      }
    }
    try (SparkSubmission last = cluster.submit(name + "-final", options, app, args)) {
      int code = last.await(RUN_TIMEOUT);
      assertEquals(0, code, ClusterJobs.describe(last, code));
    }
    assertEquals("ok", ClusterJobs.result(markers).orElseThrow().get("status").asText());
    verifyBatches(output, seed, kills);
    verifyCheckpoint(bucket, checkpoint);
    LOG.info("{} seed {}: {} kills {}, {} batches exact, checkpoint verify clean, {} ms", name, seed, KILLS, kills,
        FILES, (System.nanoTime() - t0) / 1_000_000);
  }

  /** File i: {@code a} i+1 times, {@code b} once, {@code c} (i % 3) + 1 times; modification times in order. */
  private static Path writeInput(Path dir) throws IOException {
    long base = System.currentTimeMillis() - 3_600_000;
    for (int i = 0; i < FILES; i++) {
      List<String> lines = new ArrayList<>();
      lines.addAll(java.util.Collections.nCopies(i + 1, "a"));
      lines.add("b");
      lines.addAll(java.util.Collections.nCopies(i % 3 + 1, "c"));
      Path f = dir.resolve(String.format("part-%03d.txt", i));
      Files.write(f, lines);
      Files.setLastModifiedTime(f, FileTime.from(base + i * 10_000L, TimeUnit.MILLISECONDS));
    }
    return dir;
  }

  private static Map<String, Long> expected(int lastFile) {
    Map<String, Long> m = new TreeMap<>();
    for (int i = 0; i <= lastFile; i++) {
      m.merge("a", (long) i + 1, Long::sum);
      m.merge("b", 1L, Long::sum);
      m.merge("c", (long) (i % 3) + 1, Long::sum);
    }
    return m;
  }

  private static int batchFiles(Path output) throws IOException {
    try (Stream<Path> s = Files.list(output)) {
      return (int) s.filter(p -> p.getFileName().toString().matches("batch-\\d+\\.json")).count();
    }
  }

  private static void verifyBatches(Path output, long seed, List<String> kills) throws IOException {
    List<String> problems = new ArrayList<>();
    assertEquals(FILES, batchFiles(output), "one result per input file (seed " + seed + ", kills " + kills + ")");
    for (int b = 0; b < FILES; b++) {
      JsonNode got = ClusterJobs.JSON.readTree(output.resolve(String.format("batch-%06d.json", b)).toFile());
      Map<String, Long> counts = new TreeMap<>();
      got.fields().forEachRemaining(e -> counts.put(e.getKey(), e.getValue().asLong()));
      if (!counts.equals(expected(b))) {
        problems.add("batch " + b + ": " + counts + ", expected " + expected(b));
      }
    }
    assertEquals(List.of(), problems, "per-key counts (seed " + seed + ", kills " + kills + ")");
  }

  /** {@code objectcommit checkpoint verify}, from the bundle with the cluster's Spark jars, as a user runs it. */
  private static void verifyCheckpoint(S3TestBucket bucket, String checkpoint) throws Exception {
    String cp = ClusterJobs.jars().stream().map(Path::toString).collect(Collectors.joining(":"))
        + ":" + cluster.sparkHome().resolve("jars") + "/*";
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", cp, "io.objectcommit.cli.ObjectCommitCommand", "checkpoint", "verify", checkpoint));
    bucket.s3aOptions().forEach((k, v) -> cmd.add("-D" + k + "=" + v));
    cmd.add("-Dfs.objectcommit.bucket." + bucket.name() + ".conditional-writes=assume");
    Path log = cluster.dir().resolve("checkpoint-verify-" + System.currentTimeMillis() + ".log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertTrue(p.waitFor(3, TimeUnit.MINUTES), "checkpoint verify finished");
    assertEquals(0, p.exitValue(), "objectcommit checkpoint verify " + checkpoint + ":\n" + Files.readString(log));
  }
}
