package io.objectcommit.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spark 4.1's {@code ChecksumCheckpointFileManager} around this manager: with
 * {@code spark.sql.streaming.checkpoint.fileChecksum.enabled} (Spark 4.1's default: true) the state store writes a
 * {@code <file>.crc} beside every state file, through our manager, and the query still recovers; with it off, none.
 * Counts the checkpoint files written per micro-batch either way (docs/user-guide.md quotes them).
 */
class ChecksumFilesTest {

  private static final Logger LOG = LoggerFactory.getLogger(ChecksumFilesTest.class);
  private static final int BATCHES = 3;
  private static final int PARTITIONS = 4;

  /** This test's own {@code ckpt://} authority (Hadoop caches one FileSystem per authority per JVM). */
  private static final String AUTHORITY = "checksums";

  private static Path root;
  private static SparkSession spark;

  @BeforeAll
  static void startSpark() throws IOException {
    root = Files.createTempDirectory("ckpt-checksum");
    spark = SparkSession.builder().master("local[2]").appName("ChecksumFilesTest")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", Integer.toString(PARTITIONS))
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
  @ValueSource(booleans = {true, false})
  void stateFilesAndTheirChecksums(boolean checksums) throws Exception {
    spark.conf().set("spark.sql.streaming.checkpoint.fileChecksum.enabled", Boolean.toString(checksums));
    Path input = Files.createTempDirectory(root, "input-" + checksums);
    for (int i = 0; i < BATCHES; i++) {
      String rows = Stream.iterate(i * 10L, v -> v + 1).limit(10).map(String::valueOf)
          .collect(Collectors.joining("\n", "", "\n"));
      Files.write(input.resolve("part-" + i + ".csv"), rows.getBytes(StandardCharsets.UTF_8));
    }
    String name = "checksums_" + checksums;
    StreamingQuery q = spark.readStream().schema("value LONG").option("maxFilesPerTrigger", 1)
        .csv(input.toString())
        .groupBy(functions.col("value").mod(7).as("k")).count()
        .writeStream().outputMode("complete").format("memory").queryName(name)
        .option("checkpointLocation", "ckpt://" + AUTHORITY + "/" + name).start();
    try {
      q.processAllAvailable();
    } finally {
      q.stop();
    }
    assertTrue(q.exception().isEmpty(), () -> "query failed: " + q.exception().get());
    assertEquals(BATCHES * 10L, spark.table(name).agg(functions.sum("count")).first().getLong(0));

    Path dir = root.resolve(name);
    List<Path> state = files(dir.resolve("state"));
    List<Path> crcs = state.stream().filter(p -> p.getFileName().toString().endsWith(".crc"))
        .collect(Collectors.toList());
    List<Path> data = state.stream().filter(p -> !crcs.contains(p)).collect(Collectors.toList());
    int all = files(dir).size();
    LOG.info("Spark {}, fileChecksum.enabled={}: {} checkpoint files after {} micro-batches ({} per batch); state: {}"
        + " files and {} checksum files", spark.version(), checksums, all, BATCHES, (double) all / BATCHES,
        data.size(), crcs.size());
    if (checksums) {
      for (Path p : data) {
        if (p.getFileName().toString().endsWith(".delta")) {
          assertTrue(crcs.contains(p.resolveSibling(p.getFileName() + ".crc")), "checksum of " + p + ": " + crcs);
        }
      }
      assertTrue(crcs.size() >= BATCHES * PARTITIONS, "a checksum per delta file: " + crcs);
    } else {
      assertEquals(List.of(), crcs);
    }
  }

  private static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).collect(Collectors.toList());
    }
  }
}
