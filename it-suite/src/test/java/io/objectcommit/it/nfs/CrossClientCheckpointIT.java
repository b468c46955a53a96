package io.objectcommit.it.nfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.UnsafeMountException;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.testsupport.NfsClientOptions;
import io.objectcommit.testsupport.NfsLikeMount;
import io.objectcommit.testsupport.S3Endpoints;
import io.objectcommit.testsupport.TestTags;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.streaming.CheckpointFileManager;
import org.apache.spark.sql.execution.streaming.CommitLog;
import org.apache.spark.sql.execution.streaming.CommitMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;
import scala.Tuple2;

/**
 * Checkpoints shared by several nodes of a cluster through one EFS-like file system, each node a separate NFS
 * client with its own caches (the NFS-like FUSE file system of test-support). Spark's own metadata log
 * ({@link CommitLog}, the driver's {@code commits/} log) and {@link CheckpointFileManager} run on each node's
 * mount, once through objectcommit's {@code ckpt://} local-path backend and once naively through {@code file://}
 * (Spark's FileContext-based manager on the local file system), under the caching of the Linux NFS client's
 * defaults, of EFS's recommended mount options (which leave caching at the defaults), and of
 * {@code lookupcache=positive}. The naive backend breaks where the negative lookup cache answers "no such file"
 * for a name another node created; ours stays exact.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag(TestTags.NFS)
class CrossClientCheckpointIT {

  private static final Logger LOG = LoggerFactory.getLogger(CrossClientCheckpointIT.class);
  private static final int X = 0;
  private static final int Y = 1;

  private SparkSession spark;
  private Path dir;

  @BeforeAll
  void start() throws IOException {
    NfsLikeMount.assumeAvailable();
    dir = Files.createDirectories(S3Endpoints.workDir().resolve("nfs-cross-client"));
    spark = SparkSessions.local("nfs-cross-client", Map.of());
  }

  @AfterAll
  void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  static Stream<Arguments> caching() {
    return Stream.of(
        Arguments.of("Linux NFS client defaults", NfsClientOptions.linuxDefaults(), true),
        Arguments.of("EFS recommended mount options", NfsClientOptions.efsRecommended(), true),
        Arguments.of("lookupcache=positive", NfsClientOptions.linuxDefaults()
            .withLookupCache(NfsClientOptions.LookupCache.POSITIVE), false));
  }

  /**
   * Mounts nodes X and Y and adds their {@code ckpt://} settings to this session. Each test runs the naive
   * backend, then ours, on the same mounts, in separate directories ({@code naive/}, {@code ours/}).
   */
  private NfsNodes nodes(NfsClientOptions o) throws IOException {
    NfsNodes n = NfsNodes.mount(dir, o, "x", "y");
    Configuration hc = spark.sparkContext().hadoopConfiguration();
    n.hadoopSettings(null).forEach(hc::set);
    return n;
  }

  /** Selects Spark's checkpoint manager: ours for {@code ckpt://}, Spark's default for the naive {@code file://}. */
  private void use(boolean ours) {
    if (ours) {
      spark.conf().set(NfsNodes.MANAGER_KEY, NfsNodes.OUR_MANAGER);
    } else {
      spark.conf().unset(NfsNodes.MANAGER_KEY);
    }
  }

  private String where(NfsNodes n, int node, boolean ours, String rel) {
    return ours ? n.ours(node, "ours/" + rel) : n.naive(node, "naive/" + rel);
  }

  private static void report(String scenario, String caching, boolean ours, String outcome, NfsNodes n)
      throws IOException {
    LOG.info("NFS cross-client: {} | {} | {} | {} | round trips so far x={}, y={}", scenario, caching,
        ours ? "ckpt:// local-path backend" : "naive file://", outcome, n.mount(X).roundTrips(),
        n.mount(Y).roundTrips());
  }

  /**
   * The driver on node X checks {@code commits/7} (as {@code HDFSMetadataLog.add} does before it writes) and
   * dies before writing it; the driver restarted on node Y commits batch 7; the driver is moved back to node X
   * within {@code acdirmin} and reads the latest commit. Both backends stay exact: Spark lists the log before it
   * reads the latest batch, and opening the directory to list it revalidates the directory (close-to-open), which
   * drops X's negative entry for {@code commits/7}.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("caching")
  void driverRestartedOnAnotherNodeReadsTheLatestCommit(String caching, NfsClientOptions o, boolean naiveBreaks)
      throws Exception {
    try (NfsNodes n = nodes(o)) {
      for (boolean ours : new boolean[] {false, true}) {
        use(ours);
        CommitLog first = new CommitLog(spark, where(n, X, ours, "q/commits"));
        for (long b = 0; b <= 6; b++) {
          assertTrue(first.add(b, new CommitMetadata(b)));
        }
        assertFalse(SparkStateFiles.manager(spark, where(n, X, ours, "q/commits")).exists(
            new org.apache.hadoop.fs.Path(where(n, X, ours, "q/commits/7"))));
        CommitLog onY = new CommitLog(spark, where(n, Y, ours, "q/commits"));
        assertEquals(6L, (long) onY.getLatest().get()._1());
        assertTrue(onY.add(7, new CommitMetadata(7)));

        Option<Tuple2<Object, CommitMetadata>> latest = new CommitLog(spark, where(n, X, ours, "q/commits"))
            .getLatest();
        assertEquals(7L, (long) latest.get()._1());
        assertEquals(7L, latest.get()._2().nextBatchWatermarkMs());
        report("driver restarted on another node", caching, ours, "latest commit 7, exact", n);
      }
    }
  }

  /**
   * Two drivers on one checkpoint: a zombie driver on node X checks {@code commits/7} (absent), the new driver on
   * node Y commits batch 7, then the zombie writes {@code commits/7} with {@code createAtomic(path, false)} as
   * {@code HDFSMetadataLog.write} does. Both backends refuse the zombie: ours publishes with {@code link(2)}
   * (refused by the server; or it finds the name already at create); the naive manager creates its temporary
   * file in the same directory first, and that change of the directory by X revalidates it (the NFSv4 change
   * information shows that another client changed it too), so its check before the rename sees Y's file.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("caching")
  void zombieDriverCannotReplaceACommitOfTheNewDriver(String caching, NfsClientOptions o, boolean naiveBreaks)
      throws Exception {
    try (NfsNodes n = nodes(o)) {
      for (boolean ours : new boolean[] {false, true}) {
        use(ours);
        CommitLog zombie = new CommitLog(spark, where(n, X, ours, "q/commits"));
        org.apache.hadoop.fs.Path onX = new org.apache.hadoop.fs.Path(where(n, X, ours, "q/commits/7"));
        CheckpointFileManager xfm = SparkStateFiles.manager(spark, where(n, X, ours, "q/commits"));
        assertFalse(xfm.exists(onX));
        CommitLog newDriver = new CommitLog(spark, where(n, Y, ours, "q/commits"));
        assertTrue(newDriver.add(7, new CommitMetadata(7000)));

        boolean replaced;
        try {
          SparkStateFiles.writeCommit(zombie, xfm, onX, new CommitMetadata(1));
          replaced = true;
        } catch (IOException e) {
          assertTrue(e instanceof FileAlreadyExistsException || e.getCause() instanceof FileAlreadyExistsException,
              e.toString());
          replaced = false;
        }
        long seenByY = new CommitLog(spark, where(n, Y, ours, "q/commits")).get(7).get().nextBatchWatermarkMs();
        report("zombie driver", caching, ours, replaced ? "zombie's write accepted, commit of Y now " + seenByY
            : "zombie refused (FileAlreadyExistsException), commit of Y intact", n);
        assertFalse(replaced, "a second writer of commits/7 must fail");
        assertEquals(7000L, seenByY);
      }
    }
  }

  /**
   * A state store partition moves between executors, and a negative lookup breaks the naive backend. Executor B
   * on node Y loads version 5 the way HDFSBackedStateStoreProvider does (open {@code v.snapshot} by name for
   * v = 5..1, all absent, then the deltas 1..5); its task starts version 6 (a temporary file in the directory)
   * and fails. Executor A on node X then runs maintenance: writes {@code 5.snapshot} and deletes the deltas it
   * covers ({@code spark.sql.streaming.minBatchesToRetain} small). The task is retried on a new executor on node Y
   * (same NFS client): loading version 5 again, node Y still answers "no such file" for {@code 5.snapshot} from
   * its negative lookup cache, falls back to the deleted deltas and fails. Ours revalidates the directory when
   * the snapshot is missing, finds it and loads the exact state. Nothing in Spark lists this directory in
   * between, so nothing else revalidates it.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("caching")
  void stateReloadFindsTheSnapshotAnotherExecutorWrote(String caching, NfsClientOptions o, boolean naiveBreaks)
      throws Exception {
    try (NfsNodes n = nodes(o)) {
      for (boolean ours : new boolean[] {false, true}) {
        use(ours);
        String rel = "q/state/0/3/";
        CheckpointFileManager a = SparkStateFiles.manager(spark, where(n, X, ours, rel));
        a.mkdirs(new org.apache.hadoop.fs.Path(where(n, X, ours, rel)));
        for (int v = 1; v <= 5; v++) {
          SparkStateFiles.write(a, where(n, X, ours, rel + v + ".delta"), 10);
        }
        CheckpointFileManager b = SparkStateFiles.manager(spark, where(n, Y, ours, rel));
        assertEquals(50L, SparkStateFiles.load(b, where(n, Y, ours, rel), 5));
        b.createAtomic(new org.apache.hadoop.fs.Path(where(n, Y, ours, rel + "6.delta")), true).cancel();

        SparkStateFiles.write(a, where(n, X, ours, rel + "5.snapshot"), 50);
        for (int v = 1; v <= 4; v++) {
          a.delete(new org.apache.hadoop.fs.Path(where(n, X, ours, rel + v + ".delta")));
        }

        // a new manager, as a retried task has; made inside the lambda, whose captures must stay line-neutral types
        String dir = where(n, Y, ours, rel);
        if (!ours && naiveBreaks) {
          IllegalStateException e = assertThrows(IllegalStateException.class,
              () -> SparkStateFiles.load(SparkStateFiles.manager(spark, dir), dir, 5));
          report("state reload after maintenance on another node", caching, ours, "task fails: " + e.getMessage(),
              n);
        } else {
          assertEquals(50L, SparkStateFiles.load(SparkStateFiles.manager(spark, dir), dir, 5));
          report("state reload after maintenance on another node", caching, ours, "state 50, exact", n);
        }
      }
    }
  }

  /**
   * nocto: listings come from the directory cache while the directory's attributes are fresh, so a node lists a
   * metadata log without the batch another node wrote, which neither backend can repair: ours refuses to start
   * on such a mount, naming the option; with {@code unsafe-mount=warn} it starts and the listing is stale.
   */
  @Test
  void noctoMountsAreRefused() throws Exception {
    NfsClientOptions nocto = NfsClientOptions.linuxDefaults().withNoCto();
    try (NfsNodes n = nodes(nocto)) {
      use(true);
      UnsafeMountException e = assertThrows(UnsafeMountException.class,
          () -> FileSystem.newInstance(new URI(n.ours(X, "")), spark.sparkContext().hadoopConfiguration()));
      assertEquals(List.of("nocto"), e.options());
      assertTrue(e.getMessage().contains("remove nocto"), e.getMessage());

      Configuration warn = new Configuration(spark.sparkContext().hadoopConfiguration());
      n.hadoopSettings("warn").forEach(warn::set);
      try (FileSystem x = FileSystem.newInstance(new URI(n.ours(X, "")), warn);
          FileSystem y = FileSystem.newInstance(new URI(n.ours(Y, "")), warn)) {
        org.apache.hadoop.fs.Path log = new org.apache.hadoop.fs.Path(n.ours(X, "q/offsets"));
        x.mkdirs(log);
        x.create(new org.apache.hadoop.fs.Path(log, "0"), false).close();
        assertEquals("[0]", names(x, log));
        y.create(new org.apache.hadoop.fs.Path(n.ours(Y, "q/offsets/1")), false).close();
        String seen = names(x, log);
        LOG.info("NFS cross-client: nocto listing on X after Y wrote batch 1: {}", seen);
        assertEquals("[0]", seen, "with nocto the listing is stale (acdirmin=30 s): why such mounts are refused");
      }
    }
  }

  private static String names(FileSystem fs, org.apache.hadoop.fs.Path dir) throws IOException {
    return Arrays.stream(fs.listStatus(dir)).map(s -> s.getPath().getName()).sorted()
        .collect(Collectors.toList()).toString();
  }
}
