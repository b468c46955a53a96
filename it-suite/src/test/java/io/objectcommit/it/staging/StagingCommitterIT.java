package io.objectcommit.it.staging;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.commit.files.SuccessData;
import io.objectcommit.it.SmokeJob;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.CommitterContender;
import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.it.faults.StagingCommitters;
import io.objectcommit.staging.StagingConstants;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import io.objectcommit.testsupport.proxy.FaultPlan;
import io.objectcommit.testsupport.proxy.RequestCounts;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The staging committer in Spark {@code local[2]} through the fault proxy: visibility while tasks run, job abort,
 * conflict modes, Spark's overwrite modes, and request counts. 20,000 rows in 4 tasks unless said otherwise.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class StagingCommitterIT {

  private static final Logger LOG = LoggerFactory.getLogger(StagingCommitterIT.class);
  private static final long ROWS = 20_000;
  private static final int TASKS = 4;
  private static final int HELD_PARTITION = 3;

  /** Tasks of {@link HoldLastTask} wait on this; null: run through. */
  private static volatile CountDownLatch release;
  /** Number of committed task records, polled by {@link HoldLastTask}. */
  private static volatile IntSupplier committedRecords;
  /** When true, the held task fails instead of going on. */
  private static volatile boolean failHeldTask;

  /**
   * Partition {@value #HELD_PARTITION} waits until the other tasks have committed, then either waits for the test
   * to release it or fails.
   */
  static final class HoldLastTask implements MapPartitionsFunction<Row, Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public Iterator<Row> call(Iterator<Row> rows) throws Exception {
      if (TaskContext.getPartitionId() == HELD_PARTITION) {
        long deadline = System.currentTimeMillis() + 60_000;
        while (committedRecords.getAsInt() < TASKS - 1 && System.currentTimeMillis() < deadline) {
          Thread.sleep(100);
        }
        if (failHeldTask) {
          throw new IllegalStateException("injected failure of the last task");
        }
        CountDownLatch r = release;
        if (r != null && !r.await(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("never released");
        }
      }
      return rows;
    }
  }

  private static Dataset<Row> held(SparkSession spark) {
    Dataset<Row> ds = SmokeJob.dataset(spark, ROWS).repartition(TASKS);
    return ds.mapPartitions(new HoldLastTask(), Encoders.row(ds.schema()));
  }

  private static List<String> keys(S3TestBucket bucket, String rel) {
    String top = bucket.key(rel);
    return bucket.listKeys(rel).stream().map(k -> k.substring(top.length())).collect(Collectors.toList());
  }

  private static List<String> dataFiles(S3TestBucket bucket, String rel) {
    return keys(bucket, rel).stream().filter(k -> !k.startsWith(".objectcommit-staging/") && !k.equals("_SUCCESS"))
        .collect(Collectors.toList());
  }

  private static int pendingUploads(S3TestBucket bucket, String rel) {
    return bucket.plain().listMultipartUploads(bucket.name(), bucket.key(rel)).size();
  }

  /** The staging area's objects but for what a store guarantee check writes (and deletes) under its probe/. */
  private static int records(S3TestBucket bucket, String rel) {
    return (int) keys(bucket, rel).stream()
        .filter(k -> k.startsWith(".objectcommit-staging/") && !k.startsWith(".objectcommit-staging/probe/")).count();
  }

  private static SparkSession session(ProxiedBucket proxied, String master, CommitterContender c) {
    return SparkSessions.local("staging-it", master, proxied.s3aOptions(), c.sparkConf());
  }

  @Test
  void nothingIsVisibleBeforeJobCommit(S3TestBucket bucket) throws Exception {
    String table = bucket.s3a("table");
    try (ProxiedBucket proxied = new ProxiedBucket(bucket);
        SparkSession spark = session(proxied, "local[2]", StagingCommitters.parquetBinding())) {
      release = new CountDownLatch(1);
      failHeldTask = false;
      committedRecords = () -> records(bucket, "table/");
      CompletableFuture<Void> write = CompletableFuture.runAsync(
          () -> held(spark).write().mode(SaveMode.Append).parquet(table));
      long deadline = System.currentTimeMillis() + 60_000;
      while (records(bucket, "table/") < TASKS - 1 && System.currentTimeMillis() < deadline) {
        Thread.sleep(100);
      }
      // three tasks have committed, the fourth is still running
      assertEquals(TASKS - 1, records(bucket, "table/"), keys(bucket, "table/").toString());
      assertEquals(List.of(), dataFiles(bucket, "table/"), "nothing of the job is visible while tasks run");
      assertEquals(0, pendingUploads(bucket, "table/"), "small files ride in their task records: no upload");
      assertTrue(!write.isDone());
      release.countDown();
      write.get(120, TimeUnit.SECONDS);

      assertEquals(TASKS, dataFiles(bucket, "table/").size(), keys(bucket, "table/").toString());
      assertEquals(List.of(), keys(bucket, "table/").stream().filter(k -> k.startsWith(".objectcommit-staging/"))
          .collect(Collectors.toList()), "task records are deleted");
      assertEquals(0, pendingUploads(bucket, "table/"));
      assertEquals(SmokeJob.expected(ROWS), SmokeJob.read(spark, table));
      SuccessData success = SuccessData.CODEC.fromBytes(bucket.plain().getObjectAsString(bucket.name(),
          bucket.key("table/_SUCCESS")).getBytes(StandardCharsets.UTF_8), "_SUCCESS");
      assertEquals(SuccessData.S3A_NAME, success.getName());
      assertEquals((long) TASKS, success.getMetrics().get(SuccessData.METRIC_FILES_COMMITTED));
      assertEquals(TASKS, success.getFilenames().size());
    } finally {
      release = null;
    }
  }

  @Test
  void jobAbortLeavesNoFileAndNoPendingUpload(S3TestBucket bucket) throws Exception {
    String table = bucket.s3a("table");
    try (ProxiedBucket proxied = new ProxiedBucket(bucket);
        SparkSession spark = session(proxied, "local[2]", StagingCommitters.parquetBinding())) {
      release = null;
      failHeldTask = true;
      committedRecords = () -> records(bucket, "table/");
      Exception failure = null;
      try {
        held(spark).write().mode(SaveMode.Append).parquet(table);
      } catch (Exception e) { // SparkException
        failure = e;
      }
      assertNotNull(failure, "the job fails");
      // no file, no record, no _SUCCESS: only the job-abort marker, kept (hidden, a few bytes) so that a task
      // commit still running when the job was aborted finds it and aborts its own uploads (docs/committer-staging.md)
      List<String> left = keys(bucket, "table/");
      assertEquals(1, left.size(), "only the job-abort marker: " + left);
      // the job id: Spark's write UUID, or on Spark 4.2 the Hadoop job id (docs/architecture.md, Spark lines)
      assertTrue(left.get(0).matches("\\.objectcommit-staging/[A-Za-z0-9_.-]+/job-aborted\\.json"), left.toString());
      assertEquals(0, pendingUploads(bucket, "table/"), "the committed tasks' uploads are aborted");
      assertEquals(0, pendingUploads(bucket, ""), "no upload anywhere");
    } finally {
      failHeldTask = false;
    }
  }

  private static void append(SparkSession spark, String path, long from, long rows, Map<String, String> options) {
    spark.range(from, from + rows).selectExpr("id", "CAST(id % 7 AS INT) AS bucket").repartition(TASKS).write()
        .options(options).mode(SaveMode.Append).partitionBy("bucket").parquet(path);
  }

  private static long count(SparkSession spark, String path) {
    return spark.read().parquet(path).count();
  }

  @Test
  void conflictModes(S3TestBucket bucket) throws IOException {
    try (ProxiedBucket proxied = new ProxiedBucket(bucket);
        SparkSession spark = session(proxied, "local[2]", StagingCommitters.protocol())) {
      String t = bucket.s3a("modes");
      append(spark, t, 0, 7_000, Map.of());
      // append: both
      append(spark, t, 7_000, 7_000, Map.of("fs.objectcommit.staging.conflict-mode", "append"));
      assertEquals(14_000, count(spark, t));
      // fail: refused, nothing changes, nothing pending
      Exception refused = null;
      try {
        append(spark, t, 100_000, 7_000, Map.of("fs.objectcommit.staging.conflict-mode", "fail"));
      } catch (Exception e) {
        refused = e;
      }
      assertNotNull(refused);
      assertTrue(String.valueOf(refused).contains("conflict mode is fail")
          || String.valueOf(refused.getCause()).contains("conflict mode is fail"), String.valueOf(refused));
      assertEquals(14_000, count(spark, t));
      assertEquals(0, pendingUploads(bucket, "modes/"));
      // replace (directory): only the new rows
      append(spark, t, 200_000, 3_500, Map.of("fs.objectcommit.staging.conflict-mode", "replace"));
      assertEquals(3_500, count(spark, t));
      assertEquals(200_000, spark.read().parquet(t).agg(org.apache.spark.sql.functions.min("id")).first().getLong(0));
      // partitioned replace: only the partitions written (bucket 0 and 1) are replaced
      spark.range(300_000, 300_000 + 1_000).selectExpr("id", "CAST(id % 2 AS INT) AS bucket").repartition(TASKS)
          .write().option("fs.objectcommit.staging.committer", "partitioned")
          .option("fs.objectcommit.staging.conflict-mode", "replace").mode(SaveMode.Append).partitionBy("bucket")
          .parquet(t);
      Dataset<Row> all = spark.read().parquet(t);
      assertEquals(1_000, all.where(col("bucket").lt(2)).count());
      assertEquals(3_500 * 5 / 7, all.where(col("bucket").geq(2)).count(), "other partitions untouched");
      // partitioned fail: refused because bucket 1 exists, though bucket 9 does not
      Exception partitionRefused = null;
      try {
        spark.range(0, 100).selectExpr("id", "CAST(CASE WHEN id % 2 = 0 THEN 1 ELSE 9 END AS INT) AS bucket")
            .write().option("fs.objectcommit.staging.committer", "partitioned")
            .option("fs.objectcommit.staging.conflict-mode", "fail").mode(SaveMode.Append).partitionBy("bucket")
            .parquet(t);
      } catch (Exception e) {
        partitionRefused = e;
      }
      assertNotNull(partitionRefused);
      assertEquals(1_000 + 2_500, spark.read().parquet(t).count());
      assertEquals(0, pendingUploads(bucket, "modes/"));
      assertTrue(dataFiles(bucket, "modes/").stream().noneMatch(k -> k.startsWith("bucket=9/")));
    }
  }

  @Test
  void sparkOverwriteModes(S3TestBucket bucket) throws IOException {
    try (ProxiedBucket proxied = new ProxiedBucket(bucket);
        SparkSession spark = session(proxied, "local[2]", StagingCommitters.protocol())) {
      String t = bucket.s3a("overwrite");
      append(spark, t, 0, 7_000, Map.of()); // 1,000 rows in each of buckets 0..6
      // dynamic partition overwrite: rows only in buckets 2 and 5 replace exactly those partitions
      spark.range(50_000, 50_000 + 600).selectExpr("id", "CAST(CASE WHEN id % 2 = 0 THEN 2 ELSE 5 END AS INT) AS bucket")
          .repartition(TASKS).write().option("partitionOverwriteMode", "dynamic").mode(SaveMode.Overwrite)
          .partitionBy("bucket").parquet(t);
      Dataset<Row> all = spark.read().parquet(t);
      assertEquals(5 * 1_000 + 600, all.count());
      assertEquals(300, all.where(col("bucket").equalTo(2)).count());
      assertEquals(300, all.where(col("bucket").equalTo(5)).count());
      assertEquals(1_000, all.where(col("bucket").equalTo(6)).count());
      assertTrue(dataFiles(bucket, "overwrite/").stream().noneMatch(k -> k.startsWith(".spark-staging")),
          "no Spark staging directory");
      // static Overwrite: the old table is deleted at job commit, not before the job
      spark.range(0, 1_400).selectExpr("id", "CAST(id % 7 AS INT) AS bucket").repartition(TASKS).write()
          .mode(SaveMode.Overwrite).partitionBy("bucket").parquet(t);
      assertEquals(1_400, spark.read().parquet(t).count());
      assertEquals(0, pendingUploads(bucket, "overwrite/"));
    }
  }

  @Test
  void factoryBindingWritesAnyFormat(S3TestBucket bucket) throws IOException {
    try (ProxiedBucket proxied = new ProxiedBucket(bucket);
        SparkSession spark = session(proxied, "local[2]", StagingCommitters.factory())) {
      String t = bucket.s3a("json");
      SmokeJob.dataset(spark, ROWS).repartition(TASKS).write().mode(SaveMode.Append).json(t);
      assertEquals(ROWS, spark.read().schema("id LONG, bucket INT, name STRING").json(t).count());
      assertEquals(TASKS, dataFiles(bucket, "json/").size());
      assertTrue(keys(bucket, "json/").contains("_SUCCESS"));
    }
  }

  private static RequestCounts measure(ProxiedBucket proxied, Runnable write) {
    proxied.proxy().resetCounts();
    write.run();
    return proxied.proxy().counts();
  }

  /**
   * Exact requests per file and per task, through the Parquet binding under Spark's default commit protocol (job
   * commit reads each task's record) and through {@code StagingCommitProtocol} (each record rides to the driver in
   * its task's commit message: job commit lists the job's records once and reads none).
   */
  @ParameterizedTest(name = "through the commit protocol: {0}")
  @ValueSource(booleans = {false, true})
  void requestsPerFileAndPerTask(boolean protocol, S3TestBucket bucket) throws IOException {
    try (ProxiedBucket proxied = new ProxiedBucket(bucket);
        SparkSession spark = session(proxied, "local[2]",
            protocol ? StagingCommitters.protocol() : StagingCommitters.parquetBinding())) {
      proxied.proxy().setFaults(FaultPlan.none());
      Dataset<Row> data = SmokeJob.dataset(spark, ROWS);
      data.repartition(TASKS).write().mode(SaveMode.Append).parquet(bucket.s3a("warmup"));
      RequestCounts a = measure(proxied, () -> data.repartition(TASKS).write().mode(SaveMode.Append)
          .parquet(bucket.s3a("a")));
      RequestCounts b = measure(proxied, () -> data.repartition(TASKS).write().mode(SaveMode.Append)
          .option("maxRecordsPerFile", ROWS / TASKS / 4).parquet(bucket.s3a("b")));
      RequestCounts c = measure(proxied, () -> data.repartition(2 * TASKS).write().mode(SaveMode.Append)
          .parquet(bucket.s3a("c")));
      // the same as b with no file carried in a task record: every file a pending upload, as files beyond a task
      // record's budget (fs.objectcommit.staging.inline.task-bytes, 1 MiB) are
      spark.sparkContext().hadoopConfiguration().set(StagingConstants.INLINE_TASK_BYTES, "0");
      RequestCounts d;
      try {
        d = measure(proxied, () -> data.repartition(TASKS).write().mode(SaveMode.Append)
            .option("maxRecordsPerFile", ROWS / TASKS / 4).parquet(bucket.s3a("d")));
      } finally {
        spark.sparkContext().hadoopConfiguration().unset(StagingConstants.INLINE_TASK_BYTES);
      }
      LOG.info("4 tasks x 1 file: {}", a);
      LOG.info("4 tasks x 4 files: {}", b);
      LOG.info("8 tasks x 1 file: {}", c);
      LOG.info("4 tasks x 4 files, every file a pending upload: {}", d);
      int filesA = TASKS;
      int filesB = TASKS * 4;
      int filesC = TASKS * 2;
      // small files ride in their task records: job commit writes each with one PUT, nothing is uploaded in parts
      for (RequestCounts r : List.of(a, b, c)) {
        assertEquals(0, r.of(S3Operation.MULTIPART_INITIATE) + r.of(S3Operation.MULTIPART_PART)
            + r.of(S3Operation.MULTIPART_COMPLETE) + r.of(S3Operation.MULTIPART_ABORT), r.toString());
        assertEquals(0, r.of(S3Operation.COPY), r.toString());
      }
      assertEquals(dataFiles(bucket, "b/").size(), filesB);
      // more files in the same tasks: exactly 1 request (its PUT) per extra file, nothing else changes
      assertEquals(filesB - filesA, b.of(S3Operation.PUT) - a.of(S3Operation.PUT), "b - a: " + b.minus(a));
      assertEquals(filesB - filesA, b.total() - a.total(), "b - a: " + b.minus(a));
      // more tasks: its file's PUT, plus a record PUT and a job-abort marker GET per extra task, and the record's GET
      // at job commit unless the commit protocol handed the record over (then one LIST for every task, below 1,000)
      RequestCounts perTask = c.minus(a);
      LOG.info("8 tasks - 4 tasks: {}", perTask);
      int recordReads = protocol ? 0 : 1;
      assertEquals(2 * TASKS, perTask.of(S3Operation.PUT), "a file and a record per extra task: " + perTask);
      assertEquals((1 + recordReads) * TASKS, perTask.of(S3Operation.GET), "per extra task: " + perTask);
      assertEquals((3L + recordReads) * TASKS, perTask.total(), perTask.toString());
      for (RequestCounts r : List.of(a, b, c, d)) {
        assertEquals(protocol ? 2 : 1, r.of(S3Operation.LIST), "Spark's LIST of the destination, and job commit's of"
            + " the records through the protocol: " + r);
      }
      // as pending uploads: 3 requests per file (initiate, part, complete) where the record carried it for 1
      assertEquals(filesB, d.of(S3Operation.MULTIPART_INITIATE), d.toString());
      assertEquals(filesB, d.of(S3Operation.MULTIPART_PART), d.toString());
      assertEquals(filesB, d.of(S3Operation.MULTIPART_COMPLETE), d.toString());
      assertEquals(0, d.of(S3Operation.MULTIPART_ABORT), d.toString());
      assertEquals(2L * filesB, d.total() - b.total(), "d - b: " + d.minus(b));
      assertEquals(SmokeJob.expected(ROWS), SmokeJob.read(spark, bucket.s3a("b")));
      assertEquals(SmokeJob.expected(ROWS), SmokeJob.read(spark, bucket.s3a("d")));
    }
  }
}
