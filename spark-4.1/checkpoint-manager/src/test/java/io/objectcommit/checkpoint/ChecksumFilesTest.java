package io.objectcommit.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.config.ConfigReader;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import io.objectcommit.store.testing.InMemoryStoreFactory;
import io.objectcommit.testsupport.proxy.S3Operation;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spark 4.1's {@code ChecksumCheckpointFileManager} around this manager: with
 * {@code spark.sql.streaming.checkpoint.fileChecksum.enabled} (default true) the state store writes a
 * {@code <file>.crc} beside its state files, through our manager, and the query still recovers; with it off, none.
 * Spark 4.1 writes them for every state checkpoint format; from Spark 4.2 only for format v2
 * ({@code spark.sql.streaming.stateStore.checkpointFormatVersion=2}, RocksDB), so format v1 writes none there.
 * Counts the checkpoint files written per micro-batch in each case (docs/benchmarks.md quotes them).
 */
class ChecksumFilesTest {

  private static final Logger LOG = LoggerFactory.getLogger(ChecksumFilesTest.class);
  private static final int BATCHES = 3;
  private static final int PARTITIONS = 4;

  /** This test's own {@code ckpt://} authority (Hadoop caches one FileSystem per authority per JVM). */
  private static final String AUTHORITY = "checksums";
  /** The S3 backend's authority: a bucket of the in-memory store, whose requests are counted. */
  private static final String BUCKET = "checksums-s3";

  private static Path root;
  private static SparkSession spark;
  private static InMemoryObjectStore bucket;

  @BeforeAll
  static void startSpark() throws IOException {
    root = Files.createTempDirectory("ckpt-checksum");
    spark = SparkSession.builder().master("local[2]").appName("ChecksumFilesTest")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", Integer.toString(PARTITIONS))
        .config("spark.hadoop.fs.ckpt.impl", CheckpointFileSystem.class.getName())
        .config("spark.hadoop.fs.objectcommit.bucket." + AUTHORITY + ".checkpoint.backend", "local")
        .config("spark.hadoop.fs.objectcommit.bucket." + AUTHORITY + ".checkpoint.local.root", root.toString())
        .config("spark.hadoop." + ConfigReader.perBucketKey(StoreConstants.STORE_FACTORY, BUCKET),
            InMemoryStoreFactory.class.getName())
        .config("spark.sql.streaming.checkpointFileManagerClass", CheckpointFileManagerImpl.class.getName())
        .getOrCreate();
    bucket = InMemoryObjectStore.register(BUCKET);
  }

  @AfterAll
  static void stopSpark() throws IOException {
    if (spark != null) {
      spark.stop();
    }
    InMemoryObjectStore.unregister(BUCKET);
    if (root != null) {
      try (Stream<Path> s = Files.walk(root)) {
        s.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static final String ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";
  private static final String DEFAULT_STORE =
      "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider";

  /** What each case sets: the checksum switch, the state store, the state checkpoint format. */
  enum Case {
    CHECKSUMS_FORMAT_V1(true, DEFAULT_STORE, 1),
    NO_CHECKSUMS_FORMAT_V1(false, DEFAULT_STORE, 1),
    CHECKSUMS_ROCKSDB_FORMAT_V2(true, ROCKSDB, 2);

    final boolean checksums;
    final String provider;
    final int formatVersion;

    Case(boolean checksums, String provider, int formatVersion) {
      this.checksums = checksums;
      this.provider = provider;
      this.formatVersion = formatVersion;
    }
  }

  /** Whether this Spark writes checksum files in this case: 4.1 for every format, 4.2 on for format v2 only. */
  static boolean checksumsWritten(String sparkVersion, Case c) {
    String[] v = sparkVersion.split("\\.");
    boolean before42 = Integer.parseInt(v[0]) == 4 && Integer.parseInt(v[1]) < 2;
    return c.checksums && (before42 || c.formatVersion >= 2);
  }

  @ParameterizedTest
  @EnumSource(Case.class)
  void stateFilesAndTheirChecksums(Case c) throws Exception {
    boolean checksums = checksumsWritten(spark.version(), c);
    spark.conf().set("spark.sql.streaming.checkpoint.fileChecksum.enabled", Boolean.toString(c.checksums));
    spark.conf().set("spark.sql.streaming.stateStore.providerClass", c.provider);
    spark.conf().set("spark.sql.streaming.stateStore.checkpointFormatVersion", Integer.toString(c.formatVersion));
    String name = c.name().toLowerCase();
    runQuery(name, "ckpt://" + AUTHORITY + "/" + name);

    Path dir = root.resolve(name);
    List<Path> state = files(dir.resolve("state"));
    List<Path> crcs = state.stream().filter(p -> p.getFileName().toString().endsWith(".crc"))
        .collect(Collectors.toList());
    List<Path> data = state.stream().filter(p -> !crcs.contains(p)).collect(Collectors.toList());
    int all = files(dir).size();
    LOG.info("Spark {}, {} (fileChecksum.enabled={}, format v{}): {} checkpoint files after {} micro-batches ({} per"
        + " batch); state: {} files and {} checksum files", spark.version(), c, c.checksums, c.formatVersion, all,
        BATCHES, (double) all / BATCHES, data.size(), crcs.size());
    if (checksums && c.formatVersion >= 2) {
      // RocksDB's files (changelog, zip, sst) go through the manager too: each batch adds checksummed files
      assertTrue(crcs.size() >= BATCHES, "checksum files of RocksDB's state: " + crcs + " of " + data);
      for (Path crc : crcs) {
        String f = crc.getFileName().toString();
        assertTrue(data.contains(crc.resolveSibling(f.substring(0, f.length() - ".crc".length()))),
            "a checksum file beside its state file: " + crc);
      }
    } else if (checksums) {
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

  /**
   * On the S3 backend a state file and its checksum file are published in one manifest write (Spark closes the two
   * at once): the same query with checksum files writes exactly as many objects as without them. The checksum
   * files still cost reads: Spark asks whether each state file exists before creating it (one manifest GET each, on
   * Spark 4.1.1 12 here; not asserted: a run slower than the ancestor TTL revalidates an ancestor or two more).
   */
  @Test
  void onTheS3BackendChecksumFilesCostNoWrite() throws Exception {
    boolean checksums = checksumsWritten(spark.version(), Case.CHECKSUMS_FORMAT_V1);
    spark.conf().set("spark.sql.streaming.stateStore.providerClass", DEFAULT_STORE);
    spark.conf().set("spark.sql.streaming.stateStore.checkpointFormatVersion", "1");
    // The file system's first use writes the namespace's root manifest, once per JVM: before either run.
    org.apache.hadoop.fs.Path bucketRoot = new org.apache.hadoop.fs.Path("ckpt://" + BUCKET + "/");
    assertTrue(bucketRoot.getFileSystem(spark.sparkContext().hadoopConfiguration()).exists(bucketRoot));
    InMemoryRequestCounts with = runOnS3("s3-with-checksums", true);
    InMemoryRequestCounts without = runOnS3("s3-without-checksums", false);
    LOG.info("Spark {} on the S3 backend, {} micro-batches: with checksum files {}; without {}", spark.version(),
        BATCHES, with, without);
    assertEquals(without.of(S3Operation.PUT), with.of(S3Operation.PUT),
        "checksum files ride in their state file's manifest write: with " + with + ", without " + without);
    assertEquals(0, with.of(S3Operation.PUT, 412), "no conflict among one process's writes: " + with);
    List<String> crcs = bucket.keys("").stream().filter(k -> k.startsWith(".ckpt/dirs/")).flatMap(k -> {
      String manifest = new String(bucket.bytes(k), StandardCharsets.UTF_8);
      return Stream.of(manifest.split("\"")).filter(n -> n.endsWith(".delta.crc"));
    }).collect(Collectors.toList());
    if (checksums) {
      assertEquals(BATCHES * PARTITIONS, crcs.size(), "a checksum file per state file: " + crcs);
    } else {
      assertEquals(List.of(), crcs);
    }
  }

  /** Runs the test's query on the S3 backend; the requests it sent. */
  private static InMemoryRequestCounts runOnS3(String name, boolean checksums) throws Exception {
    spark.conf().set("spark.sql.streaming.checkpoint.fileChecksum.enabled", Boolean.toString(checksums));
    InMemoryRequestCounts before = bucket.counts();
    runQuery(name.replace('-', '_'), "ckpt://" + BUCKET + "/" + name);
    return bucket.counts().minus(before);
  }

  /**
   * Runs the test's stateful query (a count by key of {@link #BATCHES} input files, one per micro-batch) on a new
   * input directory to its end, with its checkpoint at {@code checkpoint}, and checks its table {@code name}.
   */
  private static void runQuery(String name, String checkpoint) throws Exception {
    Path input = Files.createTempDirectory(root, "input-" + name);
    for (int i = 0; i < BATCHES; i++) {
      String rows = Stream.iterate(i * 10L, v -> v + 1).limit(10).map(String::valueOf)
          .collect(Collectors.joining("\n", "", "\n"));
      Files.write(input.resolve("part-" + i + ".csv"), rows.getBytes(StandardCharsets.UTF_8));
    }
    StreamingQuery q = spark.readStream().schema("value LONG").option("maxFilesPerTrigger", 1)
        .csv(input.toString())
        .groupBy(functions.col("value").mod(7).as("k")).count()
        .writeStream().outputMode("complete").format("memory").queryName(name)
        .option("checkpointLocation", checkpoint).start();
    try {
      q.processAllAvailable();
    } finally {
      q.stop();
    }
    assertTrue(q.exception().isEmpty(), () -> "query failed: " + q.exception().get());
    assertEquals(BATCHES * 10L, spark.table(name).agg(functions.sum("count")).first().getLong(0));
  }

  private static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).collect(Collectors.toList());
    }
  }
}
