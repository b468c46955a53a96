package io.objectcommit.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.testsupport.SparkCompat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A stateful Structured Streaming query on {@code ckpt://} with the local-path backend and this manager
 * ({@code spark.sql.streaming.checkpointFileManagerClass}), stopped and restarted between micro-batches: the state
 * comes back from the checkpoint, for each state store setup. No network. The same source runs on every Spark line
 * (the Spark 4 line modules compile it against their Spark), which is how we know the manager class of each line
 * loads and works under that Spark's streaming engine.
 */
class LocalCheckpointQueryTest {

  private static final String HDFS = "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider";
  private static final String ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";

  /** The state store setups: provider, changelog checkpointing, checkpoint format version. */
  enum StateStore {
    DEFAULT(HDFS, false, 1),
    ROCKSDB_SNAPSHOTS(ROCKSDB, false, 1),
    ROCKSDB_CHANGELOG(ROCKSDB, true, 1),
    /** Checkpoint format v2 (Spark 4.0+): state files named by unique ids recorded in the commit log. */
    ROCKSDB_CHANGELOG_FORMAT_V2(ROCKSDB, true, 2);

    final String provider;
    final boolean changelog;
    final int formatVersion;

    StateStore(String provider, boolean changelog, int formatVersion) {
      this.provider = provider;
      this.changelog = changelog;
      this.formatVersion = formatVersion;
    }
  }

  /**
   * The authority of this test's {@code ckpt://} paths, its own: Hadoop caches one FileSystem per scheme and
   * authority per JVM, with the settings of its first use (another test class's local root, if they shared one).
   */
  private static final String AUTHORITY = "queries";

  private static Path root;
  private static SparkSession spark;

  @BeforeAll
  static void startSpark() throws IOException {
    root = Files.createTempDirectory("ckpt-local-query");
    spark = SparkSession.builder().master("local[2]").appName("LocalCheckpointQueryTest")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.hadoop.fs.ckpt.impl", CheckpointFileSystem.class.getName())
        .config("spark.hadoop.fs.objectcommit.bucket." + AUTHORITY + ".checkpoint.backend", "local")
        .config("spark.hadoop.fs.objectcommit.bucket." + AUTHORITY + ".checkpoint.local.root", root.toString())
        .config("spark.sql.streaming.checkpointFileManagerClass", CheckpointFileManagerImpl.class.getName())
        .getOrCreate();
  }

  @AfterAll
  static void stopSpark() throws IOException {
    if (spark != null) {
      spark.stop();
    }
    if (root != null) {
      try (Stream<Path> s = Files.walk(root)) {
        s.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @ParameterizedTest
  @EnumSource(StateStore.class)
  void stateSurvivesRestarts(StateStore store) throws Exception {
    int major = Integer.parseInt(spark.version().split("\\.")[0]);
    Assumptions.assumeTrue(store.formatVersion == 1 || major >= 4, "checkpoint format v2 needs Spark 4");
    spark.conf().set("spark.sql.streaming.stateStore.providerClass", store.provider);
    spark.conf().set("spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled",
        Boolean.toString(store.changelog));
    if (major >= 4) {
      spark.conf().set("spark.sql.streaming.stateStore.checkpointFormatVersion",
          Integer.toString(store.formatVersion));
    }
    Path input = Files.createTempDirectory(root, "input-" + store);
    String checkpoint = "ckpt://" + AUTHORITY + "/" + store.name().toLowerCase() + "/query";
    String table = "counts_" + store.name().toLowerCase();

    Map<Long, Long> expected = new TreeMap<>();
    for (int run = 1; run <= 2; run++) {
      long from = (run - 1) * 100L;
      List<Long> values = LongStream.range(from, from + 100 + run).boxed().collect(Collectors.toList());
      Files.write(input.resolve("part-" + run + ".csv"),
          values.stream().map(String::valueOf).collect(Collectors.joining("\n", "", "\n"))
              .getBytes(StandardCharsets.UTF_8));
      values.forEach(v -> expected.merge(v % 3, 1L, Long::sum));

      StreamingQuery q = SparkCompat.option(spark.readStream().schema("value LONG").csv(input.toString())
          .groupBy(functions.col("value").mod(3).as("k")).count()
          .writeStream().outputMode("complete").format("memory").queryName(table), "checkpointLocation", checkpoint)
          .start();
      try {
        q.processAllAvailable();
      } finally {
        q.stop();
      }
      assertTrue(q.exception().isEmpty(), () -> "query failed: " + q.exception().get());
      Map<Long, Long> counts = new TreeMap<>();
      for (Row r : spark.table(table).collectAsList()) {
        counts.put(r.getLong(0), r.getLong(1));
      }
      // complete mode re-emits the whole state: after a restart it holds the earlier runs only if the state
      // came back from the checkpoint
      assertEquals(expected, counts, "run " + run + " of " + store);
    }
    Path dir = root.resolve(store.name().toLowerCase()).resolve("query");
    for (String sub : new String[] {"offsets", "commits", "sources", "state"}) {
      assertTrue(Files.isDirectory(dir.resolve(sub)), sub + " under " + dir);
    }
    assertTrue(Files.exists(dir.resolve("commits").resolve("1")), "both batches committed");
    try (Stream<Path> s = Files.walk(dir)) {
      List<Path> leftovers = s.filter(p -> p.getFileName().toString().startsWith(".")
          && !p.getFileName().toString().endsWith(".crc")).collect(Collectors.toList());
      assertEquals(List.of(), leftovers, "no temporary files left behind");
    }
  }
}
