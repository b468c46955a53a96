package io.objectcommit.it.direct;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.commit.files.SuccessData;
import io.objectcommit.direct.DirectCommitterConstants;
import io.objectcommit.direct.SpeculationNotSupportedException;
import io.objectcommit.it.SmokeJob;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import io.objectcommit.testsupport.proxy.RequestCounts;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The direct committers in Spark local mode through the S3 fault proxy: exact rows and exact file sets after
 * retried tasks (partitioned output, ORC through PathOutputCommitProtocol), nothing left by a failed job, the
 * speculation guard, and request counts taken by the proxy.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class SparkDirectCommitterIT {

  private static final Logger LOG = LoggerFactory.getLogger(SparkDirectCommitterIT.class);
  private static final long ROWS = 20_000;
  private static final int TASKS = 4;

  @AfterEach
  void disarm() {
    FailingWrites.disarm();
  }

  private static SparkSession session(ProxiedBucket p, String master, Map<String, String> conf) {
    return SparkSessions.local("direct-committer-it", master, p.s3aOptions(), conf);
  }

  /** Keys under a relative prefix, relative to the bucket's test prefix, UUIDs replaced by "UUID". */
  private static List<String> shapes(S3TestBucket bucket, String rel) {
    return bucket.listKeys(rel).stream().map(k -> k.substring(bucket.prefix().length()))
        .map(k -> k.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "UUID")).sorted()
        .collect(Collectors.toList());
  }

  /** The requests the proxy saw during {@code write}. */
  private static RequestCounts counted(ProxiedBucket p, Runnable write) {
    RequestCounts before = p.proxy().counts();
    write.run();
    return p.proxy().counts().minus(before);
  }

  private static void write(Dataset<Row> ds, String path, long maxRecordsPerFile, String format, String... partitionBy) {
    ds.write().mode(SaveMode.Append).option("maxRecordsPerFile", maxRecordsPerFile).partitionBy(partitionBy)
        .format(format).save(path);
  }

  @Test
  @Tag(TestTags.SMOKE) // on every line: the counts fail when another committer commits (Spark 4.1's default protocol)
  void requestsAreOneUploadPerFilePlusAnOverheadPerTask(S3TestBucket bucket) throws Exception {
    try (ProxiedBucket p = new ProxiedBucket(bucket);
        SparkSession spark = session(p, "local[2]", DirectCommitters.parquet().sparkConf())) {
      Dataset<Row> data = SmokeJob.dataset(spark, ROWS);
      write(data.repartition(TASKS), bucket.s3a("warmup"), 0, "parquet");

      RequestCounts a = counted(p, () -> write(data.repartition(TASKS), bucket.s3a("a"), 0, "parquet"));
      RequestCounts b = counted(p, () -> write(data.repartition(TASKS), bucket.s3a("b"), 1000, "parquet"));
      RequestCounts c = counted(p, () -> write(data.repartition(2 * TASKS), bucket.s3a("c"), 0, "parquet"));
      LOG.info("requests: 4 tasks/4 files: {}; 4 tasks/20 files: {}; 8 tasks/8 files: {}", a, b, c);

      assertEquals(5, shapes(bucket, "a/").size(), "4 files and _SUCCESS");
      assertEquals(21, shapes(bucket, "b/").size(), "20 files and _SUCCESS");
      assertEquals(9, shapes(bucket, "c/").size(), "8 files and _SUCCESS");
      // our part of run a: per task 1 upload + 2 task-record PUTs + 1 GET of the job-abort marker (a 404); job
      // commit: marker + _SUCCESS, one GET per task plus a 404 per task type, one LIST of the job's bookkeeping, one
      // bulk DELETE of it
      assertEquals(4 + 8 + 2, a.of(S3Operation.PUT), a.toString());
      assertEquals(4 + 4 + 2, a.of(S3Operation.GET), a.toString());
      assertEquals(0, a.of(S3Operation.COPY) + a.of(S3Operation.MULTIPART_INITIATE), a.toString());
      // 16 more files, same tasks: exactly 16 more requests, all of them uploads
      RequestCounts moreFiles = b.minus(a);
      assertEquals(16, moreFiles.total(), "one request per extra file: " + moreFiles);
      assertEquals(16, moreFiles.of(S3Operation.PUT), moreFiles.toString());
      // 4 more tasks with one file each: 4 uploads + 8 record PUTs + 4 record GETs + 4 job-abort marker GETs
      RequestCounts moreTasks = c.minus(a);
      assertEquals(12, moreTasks.of(S3Operation.PUT), moreTasks.toString());
      assertEquals(8, moreTasks.of(S3Operation.GET), moreTasks.toString());
      assertEquals(20, moreTasks.total(), "5 requests per task: " + moreTasks);

      assertEquals(SmokeJob.expected(ROWS), SmokeJob.read(spark, bucket.s3a("b")));
      SuccessData s = SuccessData.CODEC.fromBytes(bucket.plain().getObjectAsString(bucket.name(),
          bucket.key("b/_SUCCESS")).getBytes(StandardCharsets.UTF_8), "b/_SUCCESS");
      assertEquals(20L, s.getMetrics().get(SuccessData.METRIC_FILES_COMMITTED));
      assertEquals(20L, s.getIostatistics().counters.get("task.op_put"));
      // every task learnt its stage's size from Spark, so job commit read the task records at once
      assertEquals(Integer.toString(TASKS), s.getDiagnostics().get(DirectCommitterConstants.DIAGNOSTIC_STAGE_TASKS),
          s.getDiagnostics().toString());
    }
  }

  @Test
  @Tag(TestTags.SMOKE) // on every line: the protocol's overrides must override Spark's methods on each of them
  void throughItsCommitProtocolJobCommitReadsNoTaskRecordAndARetriedTaskLeavesNothing(S3TestBucket bucket)
      throws Exception {
    try (ProxiedBucket p = new ProxiedBucket(bucket);
        SparkSession spark = session(p, "local[2,2]", DirectCommitters.parquetWithItsProtocol().sparkConf())) {
      Dataset<Row> data = SmokeJob.dataset(spark, ROWS);
      write(data.repartition(TASKS), bucket.s3a("warmup"), 0, "parquet");

      RequestCounts a = counted(p, () -> write(data.repartition(TASKS), bucket.s3a("a"), 0, "parquet"));
      RequestCounts c = counted(p, () -> write(data.repartition(2 * TASKS), bucket.s3a("c"), 0, "parquet"));
      LOG.info("requests through DirectCommitProtocol: 4 tasks/4 files: {}; 8 tasks/8 files: {}", a, c);

      assertEquals(5, shapes(bucket, "a/").size(), "4 files and _SUCCESS");
      assertEquals(9, shapes(bucket, "c/").size(), "8 files and _SUCCESS");
      // per task 1 upload + 2 task-record PUTs + 1 GET of the job-abort marker (a 404); job commit: one LIST of the
      // job's bookkeeping (each record's ETag is the one its task handed over: no record read), the commit marker
      // and _SUCCESS, one bulk DELETE of the bookkeeping
      assertEquals(4 + 8 + 2, a.of(S3Operation.PUT), a.toString());
      assertEquals(4, a.of(S3Operation.GET), "the job-abort marker's 404 per task, no task record read: " + a);
      assertEquals(2, a.of(S3Operation.LIST), "the job's bookkeeping, and S3A's look at the output path (with a HEAD)"
          + " when Spark checks whether it exists: " + a);
      // 4 more tasks with one file each: 4 uploads + 8 record PUTs + 4 job-abort marker GETs
      RequestCounts moreTasks = c.minus(a);
      assertEquals(12, moreTasks.of(S3Operation.PUT), moreTasks.toString());
      assertEquals(4, moreTasks.of(S3Operation.GET), moreTasks.toString());
      assertEquals(16, moreTasks.total(), "4 requests per task: " + moreTasks);
      assertEquals(SmokeJob.expected(ROWS), SmokeJob.read(spark, bucket.s3a("c")));

      // a retried task: the failed attempt's abort changes its task record before the retry commits it
      retriedTaskLeavesTheFilesOfACleanRun(bucket, spark, FailingWrites.prepare(data, TASKS));
    }
  }

  @Test
  void partitionedOutputWithARetriedTaskHasExactRowsAndFiles(S3TestBucket bucket) throws IOException {
    try (ProxiedBucket p = new ProxiedBucket(bucket);
        SparkSession spark = session(p, "local[2,2]", DirectCommitters.parquet().sparkConf())) {
      retriedTaskLeavesTheFilesOfACleanRun(bucket, spark, FailingWrites.prepare(SmokeJob.dataset(spark, ROWS), TASKS));
    }
  }

  /**
   * Writes {@code data} partitioned, once cleanly and once with task 1's first attempt failing: the retried write
   * holds exactly the clean one's files (none of the failed attempt's, no bookkeeping) and every row once.
   */
  private static void retriedTaskLeavesTheFilesOfACleanRun(S3TestBucket bucket, SparkSession spark,
      Dataset<Row> data) {
    write(data, bucket.s3a("clean"), 300, "parquet", "bucket");
    FailingWrites.arm(1, 1, 2_500);
    write(data, bucket.s3a("retried"), 300, "parquet", "bucket");
    FailingWrites.disarm();

    List<String> clean = shapes(bucket, "clean/").stream().map(k -> k.substring("clean/".length()))
        .collect(Collectors.toList());
    List<String> retried = shapes(bucket, "retried/").stream().map(k -> k.substring("retried/".length()))
        .collect(Collectors.toList());
    LOG.info("partitioned output: {} objects", retried.size());
    assertTrue(clean.size() > 7 * TASKS, clean.toString());
    assertEquals(clean, retried, "the same files as without the failure: none of the failed attempt's");
    assertTrue(retried.stream().noneMatch(k -> k.contains(DirectCommitterConstants.BOOKKEEPING_DIR)));
    assertEquals(SmokeJob.expected(ROWS), SmokeJob.read(spark, bucket.s3a("retried")));
  }

  @Test
  void aFailingJobLeavesNoFileOfItsOwn(S3TestBucket bucket) throws IOException {
    // one core: the tasks before the failing one have committed, none runs while the job aborts
    try (ProxiedBucket p = new ProxiedBucket(bucket);
        SparkSession spark = session(p, "local[1,2]", DirectCommitters.parquet().sparkConf())) {
      Dataset<Row> data = FailingWrites.prepare(SmokeJob.dataset(spark, ROWS), TASKS);
      write(data, bucket.s3a("table"), 1000, "parquet");
      List<String> before = shapes(bucket, "table/");
      FailingWrites.arm(TASKS - 1, 2, 2_500);
      Exception e = assertThrows(Exception.class, () -> write(data, bucket.s3a("table"), 1000, "parquet"));
      assertTrue(String.valueOf(e.getMessage()).contains("Job aborted") || e.toString().contains("injected"),
          e.toString());
      FailingWrites.disarm();
      List<String> expected = new ArrayList<>(before);
      // the job's id: Spark's write job UUID (Spark 3.5) or its Hadoop job id (Spark 4: job_<time>_<n>)
      expected.add("table/" + DirectCommitterConstants.BOOKKEEPING_DIR + "/JOB/job-aborted.json");
      Collections.sort(expected);
      assertEquals(expected, shapes(bucket, "table/").stream()
          .map(k -> k.replaceAll(DirectCommitterConstants.BOOKKEEPING_DIR + "/[^/]+/",
              DirectCommitterConstants.BOOKKEEPING_DIR + "/JOB/")).sorted().collect(Collectors.toList()),
          "only the earlier job's files and _SUCCESS remain, and the failed job's job-abort marker (kept)");
      assertEquals(SmokeJob.expected(ROWS), SmokeJob.read(spark, bucket.s3a("table")));
    }
  }

  @Test
  void speculationFailsWithTheSettingNamedOrFallsBackToTheClassicCommitter(S3TestBucket bucket) throws IOException {
    Map<String, String> conf = new HashMap<>(DirectCommitters.parquet().sparkConf());
    conf.put("spark.speculation", "true");
    // Refused as Spark is, and also where the user turned Hadoop's keys off (the advice of the message for
    // MapReduce): spark.speculation alone must be enough, on every Spark line (issue 23: a failed lookup of Spark
    // must not pass for "no Spark", where only Hadoop's keys would count).
    Map<String, String> hadoopOff = new HashMap<>(conf);
    hadoopOff.put("spark.hadoop." + DirectCommitterConstants.MAP_SPECULATIVE, "false");
    hadoopOff.put("spark.hadoop." + DirectCommitterConstants.REDUCE_SPECULATIVE, "false");
    try (ProxiedBucket p = new ProxiedBucket(bucket)) {
      for (Map<String, String> refused : List.of(conf, hadoopOff)) {
        try (SparkSession spark = session(p, "local[2]", refused)) {
          Exception e = assertThrows(Exception.class,
              () -> write(SmokeJob.dataset(spark, 1000).repartition(2), bucket.s3a("refused"), 0, "parquet"));
          Throwable root = e;
          while (root.getCause() != null
              && !(root instanceof SpeculationNotSupportedException)) {
            root = root.getCause();
          }
          assertEquals(SpeculationNotSupportedException.class, root.getClass(), root.toString());
          assertTrue(root.getMessage().contains("spark.speculation=true")
              && root.getMessage().contains(DirectCommitterConstants.ON_SPECULATION + "=classic"), root.toString());
          assertEquals(List.of(), shapes(bucket, "refused/"));
        }
      }
      conf.put("spark.hadoop." + DirectCommitterConstants.ON_SPECULATION, "classic");
      try (SparkSession spark = session(p, "local[2]", conf)) {
        write(SmokeJob.dataset(spark, 1000).repartition(2), bucket.s3a("classic"), 0, "parquet");
        List<String> keys = shapes(bucket, "classic/");
        assertEquals(3, keys.size(), "two files and the classic empty _SUCCESS: " + keys);
        assertEquals(SmokeJob.expected(1000), SmokeJob.read(spark, bucket.s3a("classic")));
      }
    }
  }

  @Test
  void orcThroughItsCommitProtocolAndTheFactoryReadsNoTaskRecordAtJobCommit(S3TestBucket bucket) throws Exception {
    try (ProxiedBucket p = new ProxiedBucket(bucket);
        SparkSession spark = session(p, "local[2]", DirectCommitters.everyFormatWithItsProtocol().sparkConf())) {
      Dataset<Row> data = SmokeJob.dataset(spark, ROWS);
      write(data.repartition(TASKS), bucket.s3a("warmup"), 0, "orc");
      RequestCounts w = counted(p, () -> write(data.repartition(TASKS), bucket.s3a("orc"), 0, "orc"));

      assertEquals(5, shapes(bucket, "orc/").size(), "4 files and _SUCCESS");
      assertEquals(TASKS, w.of(S3Operation.GET), "the job-abort marker's 404 per task, no task record read: " + w);
      SuccessData s = SuccessData.CODEC.fromBytes(bucket.plain().getObjectAsString(bucket.name(),
          bucket.key("orc/_SUCCESS")).getBytes(StandardCharsets.UTF_8), "orc/_SUCCESS");
      assertTrue(s.getDescription().startsWith("DirectPathOutputCommitter committed 4 file(s) of 4 task(s)"),
          s.getDescription());
      Row r = spark.read().orc(bucket.s3a("orc")).selectExpr("count(1)", "count(distinct id)").first();
      assertEquals(ROWS, r.getLong(0));
      assertEquals(ROWS, r.getLong(1));
    }
  }

  @Test
  void orcThroughPathOutputCommitProtocolWithARetriedTask(S3TestBucket bucket) throws IOException {
    try (ProxiedBucket p = new ProxiedBucket(bucket);
        SparkSession spark = session(p, "local[2,2]", DirectCommitters.pathOutput().sparkConf())) {
      Dataset<Row> data = FailingWrites.prepare(SmokeJob.dataset(spark, ROWS), TASKS);
      FailingWrites.arm(2, 1, 2_500);
      write(data, bucket.s3a("orc"), 1000, "orc");
      FailingWrites.disarm();
      List<String> keys = shapes(bucket, "orc/");
      assertEquals(21, keys.size(), "20 files of 1,000 rows and _SUCCESS: " + keys);
      // Spark 4 changed spark.sql.orc.compression.codec's default from snappy to zstd.
      String codec = spark.version().startsWith("3.") ? "snappy" : "zstd";
      assertTrue(keys.contains("orc/part-00002-UUID-c004." + codec + ".orc"), keys.toString());
      Row r = spark.read().orc(bucket.s3a("orc")).selectExpr("count(1)", "sum(id)", "count(distinct id)").first();
      assertEquals(ROWS, r.getLong(0));
      assertEquals(ROWS * (ROWS - 1) / 2, r.getLong(1));
      assertEquals(ROWS, r.getLong(2));
    }
  }
}
