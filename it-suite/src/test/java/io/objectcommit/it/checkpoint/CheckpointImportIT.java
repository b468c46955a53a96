package io.objectcommit.it.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.objectcommit.checkpoint.CheckpointExport;
import io.objectcommit.checkpoint.CheckpointImport;
import io.objectcommit.checkpoint.CheckpointImport.Result.Outcome;
import io.objectcommit.checkpoint.CheckpointImportException;
import io.objectcommit.checkpoint.CheckpointMaintenance;
import io.objectcommit.it.SparkSessions;
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
import io.objectcommit.testsupport.proxy.SeenRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code objectcommit checkpoint import} on a checkpoint written by stock Spark on {@code s3a://} (Spark's default
 * checkpoint manager, the default state store or RocksDB; a file source and a count by key): refused while a batch is in
 * flight; adopted after the query stopped with no COPY and no PUT of a data object (only manifests), the source's
 * objects unchanged; the same query restarted on {@code ckpt://} with the {@code ckpt} settings continues with the
 * next batch id and exact counts; exported back to a new {@code s3a://} prefix with one COPY per file (a PUT per file
 * kept in its directory's manifest) and nothing else
 * written, where stock Spark continues with the next batch and exact counts; gc deletes no adopted object; an adopted
 * object deleted afterwards is reported by verify, by name.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class CheckpointImportIT {

  private static final String ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";

  /** The sink holds batch 3 until the test has tried to import (fresh latches for each run of the test). */
  private static volatile CountDownLatch inBatch3;
  private static volatile CountDownLatch releaseBatch3;

  private static String run(Configuration conf, String location, Op op) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new org.apache.hadoop.fs.Path(location), conf)) {
      op.run(m, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private interface Op {
    void run(CheckpointMaintenance m, PrintStream out) throws IOException;
  }

  /**
   * Runs the query once more on {@code location} with the next input file {@code batch}: exactly that batch runs,
   * with the counts of every file so far (the query kept its state).
   */
  private static void resumeOneBatch(String app, Map<String, String> sparkConf, ProxiedBucket proxied, Path input,
      StreamInput in, String location, int batch, String continues) throws Exception {
    try (SparkSession spark = SparkSessions.local(app, "local[2]", proxied.s3aOptions(), sparkConf)) {
      CountingQuery.clear();
      StreamingQuery q = CountingQuery.start(spark, input, location);
      try {
        in.addFile(batch);
        q.processAllAvailable();
      } finally {
        q.stop();
      }
      assertTrue(q.exception().isEmpty(), String.valueOf(q.exception()));
      assertEquals(List.of((long) batch), CountingQuery.batches(), continues);
      assertEquals(StreamInput.expectedCounts(batch + 1), CountingQuery.lastCounts(), "with its state");
    }
  }

  private static Map<String, String> etags(S3TestBucket bucket, String relative) {
    // the plain client: no SDK v1 type in this class, which the Spark 4 lines (SDK v2 only) must link
    return new TreeMap<>(bucket.plain().listETags(bucket.name(), bucket.key(relative)));
  }

  /**
   * With Spark's default state store ({@code .delta} files), with RocksDB with changelog checkpointing
   * ({@code .changelog} files, {@code .zip} snapshots and their SST files), and on Spark 4 with RocksDB and the state
   * checkpoint format v2 ({@code <version>_<unique id>.changelog}, the ids recorded in the commit log).
   */
  @ParameterizedTest(name = "{0} state store")
  @ValueSource(strings = {"hdfs", "rocksdb", "rocksdb-v2"})
  void aStockS3aCheckpointIsAdoptedAndItsQueryResumesExactlyOnCkpt(String stateStore, S3TestBucket bucket,
      @TempDir Path input) throws Exception {
    boolean v2 = "rocksdb-v2".equals(stateStore);
    assumeFalse(v2 && org.apache.spark.package$.MODULE$.SPARK_VERSION().startsWith("3."),
        "the state checkpoint format v2 is Spark 4's");
    Map<String, String> stateConf = new HashMap<>();
    if (stateStore.startsWith("rocksdb")) {
      stateConf.put("spark.sql.streaming.stateStore.providerClass", ROCKSDB);
      stateConf.put("spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled", "true");
    }
    if (v2) {
      stateConf.put("spark.sql.streaming.stateStore.checkpointFormatVersion", "2");
    }
    inBatch3 = new CountDownLatch(1);
    releaseBatch3 = new CountDownLatch(1);
    StreamInput in = new StreamInput(input);
    String source = bucket.s3a("old/q1");
    String target = "ckpt://" + bucket.name() + "/" + bucket.prefix() + "ckpt/q1";
    try (ProxiedBucket proxied = new ProxiedBucket(bucket)) {
      Configuration conf = commandConf(proxied);
      CheckpointImport.Options idleNow = new CheckpointImport.Options(false, false, Duration.ZERO);

      // 1. Stock Spark on s3a:// (no ckpt setting): batches 0 to 2, then batch 3 held in flight.
      try (SparkSession spark = SparkSessions.local("import-stock", "local[2]", proxied.s3aOptions(), stateConf)) {
        CountingQuery.clear();
        StreamingQuery q = CountingQuery.start(spark, input, source, id -> {
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
          CheckpointImportException fresh = assertThrows(CheckpointImportException.class,
              () -> run(conf, target, (m, out) -> m.importFrom(URI.create(source), CheckpointImport.Options.defaults(),
                  out)));
          assertTrue(fresh.forceable() && fresh.reasons().size() == 1
              && fresh.reasons().get(0).contains(" s ago, less than the idle time (300 s)"), fresh.getMessage());

          in.addFile(3);
          assertTrue(inBatch3.await(120, TimeUnit.SECONDS), "batch 3 runs");
          CheckpointImportException live = assertThrows(CheckpointImportException.class,
              () -> run(conf, target, (m, out) -> m.importFrom(URI.create(source), idleNow, out)));
          assertEquals(List.of(source.replace("s3a://", "s3://") + "/: offsets/3 has no commits/3: the query is"
              + " running batch 3, or was stopped or failed in its middle (Spark then runs it again)"), live.reasons(),
              live.getMessage());
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
      assertTrue(bucket.listKeys(".ckpt/").stream().noneMatch(k -> k.startsWith(bucket.key(".ckpt/dirs/import-"))),
          "the refused imports wrote nothing");

      // 2. The import, counted at the proxy.
      Map<String, String> before = etags(bucket, "old/q1/");
      String stateFile = v2 ? ".*/4_[0-9a-f-]+\\.changelog" : "hdfs".equals(stateStore) ? ".*/4\\.delta"
          : ".*/4\\.changelog";
      assertEquals(4, before.keySet().stream().filter(k -> k.matches(stateFile)).count(),
          "each partition's state of batch 3 as " + stateStore + " writes it: " + before.keySet());
      proxied.runStoreChecks();
      CheckpointImport.Result[] result = new CheckpointImport.Result[1];
      String out = run(conf, target, (m, o) -> result[0] = m.importFrom(URI.create(source), idleNow, o));
      // the import's requests: Spark's S3A may send its own meanwhile (the stopped query's state store maintenance
      // lists the state directories every minute while the session lives)
      List<SeenRequest> seen = proxied.proxy().requests().stream().filter(SeenRequest::fromObjectcommit).toList();
      RequestCounts used = RequestCounts.of(seen);
      assertEquals(Outcome.IMPORTED, result[0].outcome(), out);
      assertTrue(out.contains("; 1 source logs and 4 state stores checked"), "each partition's state store: " + out);
      assertEquals(before, etags(bucket, "old/q1/"), "no object of the source rewritten, added or deleted");
      // S3A from Hadoop 3.4 (the Spark 4 lines) keeps directory markers (empty "dir/" objects): not files
      assertEquals(before.keySet().stream().filter(k -> !k.endsWith("/")).count(), result[0].files(), out);
      assertEquals(0, used.of(S3Operation.COPY) + used.of(S3Operation.DELETE) + used.of(S3Operation.BULK_DELETE)
          + used.of(S3Operation.MULTIPART_INITIATE), used.toString());
      for (SeenRequest r : seen) {
        if (r.operation() == S3Operation.PUT) {
          assertTrue(r.request().key().startsWith(bucket.key(".ckpt/dirs/")), "only manifests are PUT: " + r);
        }
      }
      // one manifest per directory, the new parent "ckpt" (its manifest and the root's entry), the link
      assertEquals(result[0].directories() + 3, used.of(S3Operation.PUT), used + "\n" + out);
      assertEquals(1, used.of(S3Operation.LIST), used.toString());
      assertEquals(2, used.of(S3Operation.HEAD), "the entries after the newest batch: " + used);
      // the target's parent, read once (it does not exist), and the bucket, checked once when the store opens; on a
      // machine slow enough that the import outlasts the ancestor TTL (10 s), cached manifests are revalidated by
      // bodiless conditional GETs (304) as well: counted apart, they are the file system's, not the import's
      long revalidations = used.of(S3Operation.GET, 304);
      assertEquals(1, used.of(S3Operation.GET) - revalidations, used.toString());
      assertEquals(used.of(S3Operation.PUT) + 5 + revalidations, used.total(), used.toString());
      System.out.println("checkpoint import of a stock checkpoint (" + stateStore + ", 4 batches, 4 partitions): "
          + used + "\n" + out);

      String again = run(conf, target, (m, o) -> result[0] = m.importFrom(URI.create(source), idleNow, o));
      assertEquals(Outcome.ALREADY_IMPORTED, result[0].outcome(), again);

      // 3. The same query on ckpt:// with the ckpt settings: batch 4 next, exact counts.
      Map<String, String> ckptConf = ObjectCommitCheckpoints.s3().sparkConf();
      ckptConf.putAll(stateConf);
      resumeOneBatch("import-resumed", ckptConf, proxied, input, in, target, 4,
          "continues with the next batch, none again");

      // 4. Going back: exported to a new s3a:// prefix by server-side copies, the query resumes there on stock Spark.
      String plain = bucket.s3a("plain/q1");
      proxied.proxy().resetCounts();
      CheckpointExport.Result[] exported = new CheckpointExport.Result[1];
      String exportOut = run(conf, target, (m, o) -> exported[0] = m.exportTo(URI.create(plain), idleNow, o));
      RequestCounts copies = proxied.proxy().counts();
      assertEquals(CheckpointExport.Result.Outcome.EXPORTED, exported[0].outcome(), exportOut);
      assertEquals(exported[0].files(), exported[0].copied(), exportOut);
      // the adopted files and batch 4's larger files by a server-side COPY each, batch 4's small files (kept in their
      // directories' manifests) by a PUT of their bytes each
      assertEquals(exported[0].files(), copies.of(S3Operation.COPY) + copies.of(S3Operation.PUT),
          "one COPY or PUT per file: " + copies);
      assertTrue(copies.of(S3Operation.PUT) > 0 && exportOut.contains(" and " + copies.of(S3Operation.PUT)
          + " PUT (files kept in their directory's manifest)"), exportOut + "\n" + copies);
      assertEquals(0, copies.of(S3Operation.DELETE) + copies.of(S3Operation.BULK_DELETE)
          + copies.of(S3Operation.MULTIPART_INITIATE), "nothing written but the copies: " + copies);
      assertEquals(1, copies.of(S3Operation.LIST), "the target's listing: " + copies);
      System.out.println("checkpoint export (" + stateStore + ", 5 batches, 4 partitions): " + copies + "\n"
          + exportOut);
      resumeOneBatch("export-resumed", stateConf, proxied, input, in, plain, 5,
          "stock Spark on the export continues with the next batch");

      // 5. gc deletes no adopted object; verify reports one deleted behind objectcommit's back.
      String root = "ckpt://" + bucket.name() + "/";
      run(conf, root, (m, o) -> m.gc(Duration.ZERO, false, o));
      Map<String, String> after = etags(bucket, "old/q1/");
      assertTrue(after.entrySet().containsAll(before.entrySet()), "gc and the resumed query kept every adopted"
          + " object (no retention deletion in 5 batches): " + before.keySet() + " " + after.keySet());
      String ok = run(conf, target, (m, o) -> assertEquals(List.of(), m.verify(o)));
      assertTrue(ok.endsWith(": OK\n"), ok);
      bucket.plain().deleteObject(bucket.name(), bucket.key("old/q1/commits/2"));
      String bad = run(conf, target, (m, o) -> assertEquals(1, m.verify(o).size()));
      assertTrue(bad.contains("PROBLEM /" + bucket.prefix() + "ckpt/q1/commits/2: data object s3://" + bucket.name()
          + "/" + bucket.key("old/q1/commits/2") + " is missing (adopted by checkpoint import"), bad);
      assertFalse(bad.endsWith(": OK\n"), bad);
    }
  }

  /**
   * An import that fails midway (the store refuses its fifth manifest PUT) leaves nothing visible at the target; run
   * again, it writes only the manifests the first run did not, and the query resumes on {@code ckpt://} exactly.
   */
  @Test
  void anInterruptedImportLeavesNothingVisibleAndResumes(S3TestBucket bucket, @TempDir Path input) throws Exception {
    StreamInput in = new StreamInput(input);
    String source = bucket.s3a("old/q2");
    String target = "ckpt://" + bucket.name() + "/" + bucket.prefix() + "ckpt/q2";
    try (ProxiedBucket proxied = new ProxiedBucket(bucket)) {
      Configuration conf = commandConf(proxied);
      CheckpointImport.Options idleNow = new CheckpointImport.Options(false, false, Duration.ZERO);
      try (SparkSession spark = SparkSessions.local("import-interrupted-stock", "local[2]", proxied.s3aOptions(),
          Map.of())) {
        CountingQuery.clear();
        StreamingQuery q = CountingQuery.start(spark, input, source);
        try {
          for (int i = 0; i < 2; i++) {
            in.addFile(i);
          }
          q.processAllAvailable();
        } finally {
          q.stop();
        }
        assertEquals(List.of(0L, 1L), CountingQuery.batches());
      }

      proxied.runStoreChecks();
      proxied.proxy().setFaults(FaultPlan.builder(7).error(ErrorRule.onNth(ErrorKind.ACCESS_DENIED, 5,
          Set.of(S3Operation.PUT)).matching(".*/\\.ckpt/dirs/import-.*")).build());
      assertThrows(AccessDeniedException.class,
          () -> run(conf, target, (m, o) -> m.importFrom(URI.create(source), idleNow, o)));
      proxied.proxy().setFaults(FaultPlan.none());
      try (FileSystem fs = FileSystem.newInstance(URI.create(target), conf)) {
        assertFalse(fs.exists(new org.apache.hadoop.fs.Path(target)), "nothing visible before the link");
      }

      CheckpointImport.Result[] result = new CheckpointImport.Result[1];
      String out = run(conf, target, (m, o) -> result[0] = m.importFrom(URI.create(source), idleNow, o));
      assertEquals(Outcome.IMPORTED, result[0].outcome(), out);
      assertEquals(result[0].directories() - 4, result[0].manifestsWritten(),
          "the four manifests of the first run are kept: " + out);

      Map<String, String> ckptConf = ObjectCommitCheckpoints.s3().sparkConf();
      resumeOneBatch("import-interrupted-resumed", ckptConf, proxied, input, in, target, 2,
          "continues with the next batch, none again");
    }
  }

  /** The command's configuration: the proxied bucket's S3A settings and {@code ckpt://}, uncached per run. */
  private static Configuration commandConf(ProxiedBucket proxied) {
    Configuration conf = new Configuration();
    proxied.s3aOptions().forEach(conf::set);
    conf.set("fs.ckpt.impl", "io.objectcommit.checkpoint.CheckpointFileSystem");
    conf.setBoolean("fs.ckpt.impl.disable.cache", true);
    return conf;
  }
}
