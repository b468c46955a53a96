package io.objectcommit.it.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.CheckpointContender;
import io.objectcommit.it.faults.CountingQuery;
import io.objectcommit.it.faults.ObjectCommitCheckpoints;
import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.it.faults.StreamInput;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import io.objectcommit.testsupport.proxy.ErrorKind;
import io.objectcommit.testsupport.proxy.ErrorRule;
import io.objectcommit.testsupport.proxy.FaultPlan;
import io.objectcommit.testsupport.proxy.RequestCounts;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spark's own {@code AbortableStreamBasedCheckpointFileManager} (spark-hadoop-cloud) on {@code ckpt://} (S3
 * backend), beside ours ({@code CheckpointFileManagerImpl}). Spark's manager requires the file system's
 * abortable-stream path capability, writes each checkpoint file directly to its final path through
 * {@code FileContext}, and aborts the stream on cancel. On {@code ckpt://} both managers run a stateful query and
 * its restart exactly, and a cancelled write leaves nothing on either; the requests per micro-batch are counted
 * for both. Where they differ: Spark's manager swallows a failed close (it catches it and logs a WARN), so a
 * checkpoint file that was not written looks written to Spark; ours reports it.
 *
 * <p>The managers are driven through reflection where the test calls them directly: Spark 4.1 moved the
 * {@code CheckpointFileManager} interface to another package, and this source is compiled on every Spark line.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class SparkAbortableManagerIT {

  private static final Logger LOG = LoggerFactory.getLogger(SparkAbortableManagerIT.class);

  /** The two managers on {@code ckpt://}. */
  enum Manager {
    SPARK_ABORTABLE(ObjectCommitCheckpoints.s3WithSparkAbortableManager(),
        ObjectCommitCheckpoints.SPARK_ABORTABLE_MANAGER),
    OBJECTCOMMIT(ObjectCommitCheckpoints.s3(), "io.objectcommit.checkpoint.CheckpointFileManagerImpl");

    final CheckpointContender contender;
    final String className;

    Manager(CheckpointContender contender, String className) {
      this.contender = contender;
      this.className = className;
    }
  }

  /**
   * The requests of one steady micro-batch of {@link CountingQuery} (4 shuffle partitions, Spark's default state
   * store: 7 checkpoint files per batch, the offset, source and commit log entries and 4 state deltas), by Spark
   * line where measured. Ours: 1 request per file (the conditional manifest PUT that carries the small file's
   * bytes: checkpoint format version 2) and 6 conditional GETs that come with Spark's own calls (its existence
   * checks, and its read of a file it wrote, whose bytes are in the manifest: with version 1's data objects one GET
   * more, and 2 PUTs per file). Spark's manager: also FileContext's parent and existence checks at each create (2
   * conditional GETs per file) and its own existence check before closing each of the 3 files it must not overwrite.
   */
  private static final Map<Manager, Map<S3Operation, Long>> STEADY_3_5_AND_4_2 = Map.of(
      Manager.SPARK_ABORTABLE, Map.of(S3Operation.PUT, 7L, S3Operation.GET, 23L),
      Manager.OBJECTCOMMIT, Map.of(S3Operation.PUT, 7L, S3Operation.GET, 6L));
  /**
   * Spark 4.1.1 writes a checksum file beside each of the 4 state deltas (11 files per batch; Spark's defaults), and
   * each shares its delta's manifest PUT (both managers write through {@code ckpt://}'s streams, which Spark closes
   * at once): the same 7 PUTs. Its checksum manager asks whether each delta exists before creating it: 4 GETs more.
   */
  private static final Map<Manager, Map<S3Operation, Long>> STEADY_4_1 = Map.of(
      Manager.SPARK_ABORTABLE, Map.of(S3Operation.PUT, 7L, S3Operation.GET, 35L),
      Manager.OBJECTCOMMIT, Map.of(S3Operation.PUT, 7L, S3Operation.GET, 10L));
  private static final Map<String, Map<Manager, Map<S3Operation, Long>>> STEADY_BATCH = Map.of(
      "3.5", STEADY_3_5_AND_4_2, // Spark 3.5.8, Hadoop 3.3.4
      "4.1", STEADY_4_1, // Spark 4.1.1, Hadoop 3.4.2
      "4.2", STEADY_3_5_AND_4_2); // Spark 4.2.0, Hadoop 3.5.0 (the 4.1 line's modules with -Pspark-4.2)

  /** Micro-batches of the first run, and of the run after the restart. */
  private static final int FIRST_RUN = 4;
  private static final int SECOND_RUN = 2;

  @ParameterizedTest(name = "{0}")
  @EnumSource(Manager.class)
  @Tag(TestTags.CHECKSUM_FILES)
  void aStatefulQueryAndItsRestartGiveExactCounts(Manager manager, S3TestBucket bucket, @TempDir Path input)
      throws Exception {
    Map<String, String> conf = new HashMap<>(manager.contender.sparkConf());
    // State-store maintenance runs on a timer, outside the micro-batches: off, so that counts belong to batches.
    conf.put("spark.sql.streaming.stateStore.maintenanceInterval", "1h");
    // Ancestor directories are revalidated when their TTL (10 s) lapses, at a time that depends on the machine's
    // speed: Spark's manager looks paths up (FileContext's parent and existence checks) and pays 5 conditional
    // GETs in a batch where it lapses; ours never looks ancestors up in a micro-batch. Kept valid, so that the
    // counts are exact.
    conf.put("spark.hadoop.fs.objectcommit.checkpoint.s3.ancestor-ttl", "1h");
    StreamInput in = new StreamInput(input);
    List<RequestCounts> perBatch = new ArrayList<>();
    String sparkLine;
    try (ProxiedBucket proxied = new ProxiedBucket(bucket);
        SparkSession spark = SparkSessions.local("spark-abortable-manager", "local[2]", proxied.s3aOptions(),
            conf)) {
      proxied.runStoreChecks();
      sparkLine = spark.version().replaceAll("^(\\d+\\.\\d+).*", "$1");
      String checkpoint = manager.contender.location(proxied, "abortable/checkpoint");
      int file = 0;
      for (int run = 0; run < 2; run++) {
        CountingQuery.clear();
        StreamingQuery q = CountingQuery.start(spark, input, checkpoint);
        List<Long> expected = new ArrayList<>();
        try {
          for (int b = 0; b < (run == 0 ? FIRST_RUN : SECOND_RUN); b++, file++) {
            RequestCounts before = proxied.proxy().counts();
            in.addFile(file);
            q.processAllAvailable();
            RequestCounts used = proxied.proxy().counts().minus(before);
            perBatch.add(used);
            expected.add((long) file);
            LOG.info("{}: run {} micro-batch {}: {}", manager, run, file, used);
          }
        } finally {
          q.stop();
        }
        assertTrue(q.exception().isEmpty(), "run " + run + ": " + q.exception());
        assertEquals(expected, CountingQuery.batches(), "run " + run + ": each new file once, no batch again");
        assertEquals(StreamInput.expectedCounts(file), CountingQuery.lastCounts(), "exact state after run " + run);
      }
    }
    // The first run's micro-batches but its first (whose requests mix with the query's start): steady state, the
    // same requests in each, operation by operation.
    Map<S3Operation, Long> steady = byOperation(perBatch.get(1));
    // The first batch after the restart is not held to the steady state: on Spark 4.0 and 4.2 either manager may
    // read a state file or two more there (2-4 GETs), depending on when Spark's restart work finishes; it still
    // writes exactly what a steady batch writes, with PUTs and GETs only.
    Map<S3Operation, Long> afterRestart = byOperation(perBatch.get(FIRST_RUN + 1));
    assertEquals(steady.get(S3Operation.PUT), afterRestart.get(S3Operation.PUT), manager + ": " + perBatch);
    assertEquals(steady.keySet(), afterRestart.keySet(), manager + ": " + perBatch);
    int[] steadyBatches = {1, 2, 3};
    for (int batch : steadyBatches) {
      assertEquals(steady, byOperation(perBatch.get(batch)), manager + " batch " + batch + ": " + perBatch);
    }
    assertEquals(Set.of(S3Operation.PUT, S3Operation.GET), steady.keySet(),
        "PUTs and (conditional) GETs only: no LIST, HEAD or COPY");
    Map<Manager, Map<S3Operation, Long>> measured = STEADY_BATCH.get(sparkLine);
    if (measured != null) {
      assertEquals(measured.get(manager), steady, manager + " on Spark " + sparkLine);
    } else {
      LOG.warn("No measured request counts for Spark {}: only checked that every steady batch sends the same",
          sparkLine);
    }
  }

  /** A request count as operation -> requests, whatever their status. */
  private static Map<S3Operation, Long> byOperation(RequestCounts counts) {
    Map<S3Operation, Long> m = new EnumMap<>(S3Operation.class);
    counts.asMap().keySet().forEach(op -> m.put(op, counts.of(op)));
    return m;
  }

  /** Create, write, cancel: nothing is uploaded, nothing is visible, on either manager. */
  @ParameterizedTest(name = "{0}")
  @EnumSource(Manager.class)
  void aCancelledWriteLeavesNothingVisible(Manager manager, S3TestBucket bucket) throws Exception {
    try (ProxiedBucket proxied = new ProxiedBucket(bucket)) {
      proxied.runStoreChecks();
      org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(
          manager.contender.location(proxied, "cancel/offsets"));
      Object fm = ManagerCalls.create(manager.className, dir, hadoopConf(proxied, manager));
      ManagerCalls.mkdirs(fm, dir);
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir, "7");
      RequestCounts before = proxied.proxy().counts();
      FSDataOutputStream out = ManagerCalls.createAtomic(fm, file, false);
      out.write("{\"batch\":7}".getBytes(StandardCharsets.UTF_8));
      ManagerCalls.cancel(out);
      RequestCounts used = proxied.proxy().counts().minus(before);
      LOG.info("{}: create, write, cancel: {}", manager, used);
      assertEquals(0, used.of(S3Operation.PUT), "nothing uploaded: " + used);
      assertEquals(0, used.of(S3Operation.MULTIPART_INITIATE), used.toString());
      if (manager == Manager.OBJECTCOMMIT) {
        assertEquals(0, used.total(), "ours sends nothing at all: " + used);
      }
      assertFalse(ManagerCalls.exists(fm, file), "nothing visible");
      assertTrue(bucket.listKeys("cancel/offsets/").isEmpty(), "no object: " + bucket.listKeys("cancel/"));
    }
  }

  /**
   * Two writers create one checkpoint file exclusively (how Spark's offset and commit logs find a second query on
   * the same checkpoint): the second close is refused by the file system. Ours reports it
   * ({@code FileAlreadyExistsException}, which Spark turns into its concurrent-query error); Spark's manager
   * catches it and logs a WARN, so its caller goes on as if it had written the file. On both, the file holds the
   * first writer's bytes.
   */
  @ParameterizedTest(name = "{0}")
  @EnumSource(Manager.class)
  void aRefusedExclusiveCreateIsReportedByOursAndSwallowedBySparks(Manager manager, S3TestBucket bucket)
      throws Exception {
    try (ProxiedBucket proxied = new ProxiedBucket(bucket)) {
      proxied.runStoreChecks();
      org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(
          manager.contender.location(proxied, "race/commits"));
      Object first = ManagerCalls.create(manager.className, dir, hadoopConf(proxied, manager));
      Object second = ManagerCalls.create(manager.className, dir, hadoopConf(proxied, manager));
      ManagerCalls.mkdirs(first, dir);
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir, "0");
      FSDataOutputStream a = ManagerCalls.createAtomic(first, file, false);
      FSDataOutputStream b = ManagerCalls.createAtomic(second, file, false);
      a.write("first".getBytes(StandardCharsets.UTF_8));
      b.write("second".getBytes(StandardCharsets.UTF_8));
      a.close();
      if (manager == Manager.OBJECTCOMMIT) {
        assertThrows(FileAlreadyExistsException.class, b::close);
      } else {
        b.close(); // refused, and the refusal swallowed
      }
      assertEquals("first", read(proxied, manager, file));
      assertEquals(List.of(), bucket.listKeys("race/commits/"), "a small file is kept in its directory's manifest:"
          + " no data object, and none of the refused writer's left: " + bucket.listKeys("race/"));
    }
  }

  /**
   * The store fails every upload of one checkpoint file (a small state delta file, written with overwrite allowed:
   * its upload is its directory's manifest PUT):
   * ours fails the close, so the state store's commit fails and Spark retries or stops the query; Spark's manager
   * swallows the failure, and the delta file the query believes committed does not exist.
   */
  @ParameterizedTest(name = "{0}")
  @EnumSource(Manager.class)
  void aFailedUploadIsReportedByOursAndSwallowedBySparks(Manager manager, S3TestBucket bucket) throws Exception {
    try (ProxiedBucket proxied = new ProxiedBucket(bucket)) {
      proxied.runStoreChecks();
      org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(
          manager.contender.location(proxied, "failing/state/0/1"));
      Configuration conf = hadoopConf(proxied, manager);
      conf.setInt("fs.objectcommit.retry.limit", 1);
      Object fm = ManagerCalls.create(manager.className, dir, conf);
      ManagerCalls.mkdirs(fm, dir);
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir, "2.delta");
      proxied.proxy().setFaults(FaultPlan.builder(1)
          .error(ErrorRule.atRate(
              ErrorKind.INTERNAL_ERROR, 1.0, EnumSet.of(S3Operation.PUT))
              // the directory's manifest: a small file's upload (its bytes are in the manifest's PUT)
              .matching(".*\\.ckpt/dirs/.*"))
          .build());
      FSDataOutputStream out = ManagerCalls.createAtomic(fm, file, true);
      out.write(new byte[] {1, 2, 3});
      if (manager == Manager.OBJECTCOMMIT) {
        IOException e = assertThrows(IOException.class, out::close);
        LOG.info("{}: the failed upload, as the caller sees it: {}", manager, e.toString());
      } else {
        out.close(); // failed, and the failure swallowed
      }
      proxied.proxy().setFaults(FaultPlan.none());
      assertFalse(ManagerCalls.exists(fm, file), "the file was not written");
    }
  }

  private static String read(ProxiedBucket proxied, Manager manager, org.apache.hadoop.fs.Path file)
      throws Exception {
    FileSystem fs = file.getFileSystem(hadoopConf(proxied, manager));
    try (FSDataInputStream in = fs.open(file)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      fs.close();
    }
  }

  /** The Hadoop settings a Spark session with the manager's settings has. */
  private static Configuration hadoopConf(ProxiedBucket proxied, Manager manager) {
    Configuration conf = new Configuration();
    proxied.s3aOptions().forEach(conf::set);
    manager.contender.sparkConf().forEach((k, v) -> {
      if (k.startsWith("spark.hadoop.")) {
        conf.set(k.substring("spark.hadoop.".length()), v);
      }
    });
    return conf;
  }

  /** A checkpoint manager by class name, called as Spark calls it, on every Spark line. */
  static final class ManagerCalls {

    private ManagerCalls() {
    }

    static Object create(String className, org.apache.hadoop.fs.Path path, Configuration conf) throws Exception {
      try {
        return Class.forName(className).getConstructor(org.apache.hadoop.fs.Path.class, Configuration.class)
            .newInstance(path, conf);
      } catch (InvocationTargetException e) {
        throw unwrap(e);
      }
    }

    static void mkdirs(Object fm, org.apache.hadoop.fs.Path path) throws Exception {
      call(fm, "mkdirs", MethodType.methodType(void.class, org.apache.hadoop.fs.Path.class), path);
    }

    static boolean exists(Object fm, org.apache.hadoop.fs.Path path) throws Exception {
      return (Boolean) call(fm, "exists", MethodType.methodType(boolean.class, org.apache.hadoop.fs.Path.class),
          path);
    }

    /** Spark's {@code CancellableFSDataOutputStream}, an {@code FSDataOutputStream}. */
    static FSDataOutputStream createAtomic(Object fm, org.apache.hadoop.fs.Path path, boolean overwrite)
        throws Exception {
      return (FSDataOutputStream) call(fm, "createAtomic",
          MethodType.methodType(cancellableStream(), org.apache.hadoop.fs.Path.class, boolean.class), path,
          overwrite);
    }

    static void cancel(FSDataOutputStream out) throws Exception {
      call(out, "cancel", MethodType.methodType(void.class));
    }

    /** The stream type of the interface, in the package of this Spark line (Spark 4.1 moved it). */
    private static Class<?> cancellableStream() throws ClassNotFoundException {
      for (String pkg : new String[] {"org.apache.spark.sql.execution.streaming.checkpointing",
          "org.apache.spark.sql.execution.streaming"}) {
        try {
          return Class.forName(pkg + ".CheckpointFileManager$CancellableFSDataOutputStream");
        } catch (ClassNotFoundException e) {
          // the other line's package
        }
      }
      throw new ClassNotFoundException("CheckpointFileManager$CancellableFSDataOutputStream in neither package");
    }

    /**
     * Calls a public method through the nearest public class that has it (implementations may be private),
     * resolving that one method only: {@code Class.getMethod} resolves the types of every public method of the
     * class, which fails where one of them names a class the running Spark does not ship (issue 23).
     */
    private static Object call(Object target, String name, MethodType type, Object... args) throws Exception {
      Class<?> c = target.getClass();
      while (!Modifier.isPublic(c.getModifiers())) {
        c = c.getSuperclass();
      }
      MethodHandle m = MethodHandles.publicLookup().findVirtual(c, name, type);
      try {
        return m.bindTo(target).invokeWithArguments(args);
      } catch (Exception | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException(t);
      }
    }

    private static Exception unwrap(InvocationTargetException e) {
      Throwable t = e.getCause();
      if (t instanceof Exception) {
        return (Exception) t;
      }
      throw (Error) t;
    }
  }
}
