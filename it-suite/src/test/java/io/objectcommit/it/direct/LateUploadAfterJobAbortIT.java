package io.objectcommit.it.direct;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.commit.CommitConstants;
import io.objectcommit.commit.JobAbortedException;
import io.objectcommit.direct.DirectJobCleaner;
import io.objectcommit.direct.DirectPathOutputCommitter;
import io.objectcommit.it.SmokeJob;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import io.objectcommit.testsupport.proxy.RequestCounts;
import io.objectcommit.testsupport.proxy.S3Operation;
import io.objectcommit.testsupport.proxy.SeenRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.spark.SparkExecutorInfo;
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
 * Issue 28: a direct-committer task attempt that uploads after its job's abort has finished leaves no object in
 * the destination (LocalStack, through the fault proxy, which counts the requests). The committer API is driven as
 * Spark drives it (job setup on the driver, task setup and writes in the task, job abort from another thread, as
 * Spark's DAG scheduler aborts while a cancelled task still runs), so that the upload lands after the abort
 * deterministically: the late file's stream is closed (and so uploaded) only once the abort has returned. One test
 * runs a Spark job in local mode instead, with a task held mid-write while another fails the job.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class LateUploadAfterJobAbortIT {

  private static final Logger LOG = LoggerFactory.getLogger(LateUploadAfterJobAbortIT.class);

  @AfterEach
  void disarm() {
    FailingWrites.disarm();
  }

  /** One write job on {@code table}, driven as Spark's commit protocol drives the committer. */
  private static final class Job {
    final String uuid = UUID.randomUUID().toString();
    final JobConf conf;
    final JobID id = new JobID("202611260200", 3);
    final Path output;
    final PathOutputCommitter driver;

    Job(ProxiedBucket p, String table) throws IOException {
      conf = new JobConf(false);
      p.s3aOptions().forEach(conf::set);
      conf.set(CommitConstants.SPARK_WRITE_JOB_UUID, uuid);
      conf.set("mapreduce.map.speculative", "false"); // as Spark sets them when spark.speculation is off
      conf.set("mapreduce.reduce.speculative", "false");
      output = new Path(table);
      driver = new DirectPathOutputCommitter(output, new TaskAttemptContextImpl(conf, attempt(0, 0)));
      driver.setupJob(context());
    }

    JobContext context() {
      return new JobContextImpl(conf, id);
    }

    TaskAttemptID attempt(int task, int attempt) {
      return new TaskAttemptID(new TaskID(id, TaskType.MAP, task), attempt);
    }

    Task task(int task, int attempt) throws IOException {
      TaskAttemptContextImpl ctx = new TaskAttemptContextImpl(new JobConf(conf), attempt(task, attempt));
      PathOutputCommitter c = new DirectPathOutputCommitter(output, ctx);
      c.setupTask(ctx);
      return new Task(this, ctx, c, task);
    }

    /** Job abort on another thread (Spark's DAG scheduler), waited for: it has finished when this returns. */
    void abortFromAnotherThread() throws Exception {
      ExecutorService driverThread = Executors.newSingleThreadExecutor();
      try {
        Future<?> abort = driverThread.submit(() -> {
          driver.abortJob(context(), JobStatus.State.FAILED);
          return null;
        });
        abort.get(60, TimeUnit.SECONDS);
      } finally {
        driverThread.shutdownNow();
      }
    }
  }

  /** One task attempt. */
  private static final class Task {
    final Job job;
    final TaskAttemptContextImpl ctx;
    final PathOutputCommitter committer;
    final int index;

    Task(Job job, TaskAttemptContextImpl ctx, PathOutputCommitter committer, int index) {
      this.job = job;
      this.ctx = ctx;
      this.committer = committer;
      this.index = index;
    }

    String name(int counter) {
      return String.format("part-%05d-%s-c%03d.csv", index, job.uuid, counter);
    }

    /** Opens file {@code counter} under the work path, as Spark's writers do; nothing is uploaded before close. */
    FSDataOutputStream open(int counter) throws IOException {
      Path p = new Path(committer.getWorkPath(), name(counter));
      FSDataOutputStream out = p.getFileSystem(ctx.getConfiguration()).create(p, false);
      out.write(("id,k\n" + index + "," + counter + "\n").getBytes(StandardCharsets.UTF_8));
      return out;
    }

    void write(int counter) throws IOException {
      open(counter).close();
    }
  }

  /** Keys under {@code table/}, relative to it. */
  private static List<String> keys(S3TestBucket bucket) {
    String base = bucket.prefix() + "table/";
    return bucket.listKeys("table/").stream().map(k -> k.substring(base.length())).sorted()
        .collect(Collectors.toList());
  }

  private static String record(Job job, int task) {
    return String.format("_objectcommit_direct/%s/tasks/m-%06d.json", job.uuid, task);
  }

  /**
   * The residual case: the late attempt is killed right after its upload (no task commit or abort). The record the
   * job abort kept still declares the attempt's directory, so the cleanup command finds the late file.
   */
  @Test
  void aLateAttemptKilledAfterItsUploadIsCleanedByTheCleanupCommand(S3TestBucket bucket) throws Exception {
    try (ProxiedBucket p = new ProxiedBucket(bucket)) {
      Job job = new Job(p, bucket.s3a("table"));
      Task zombie = job.task(0, 0);
      zombie.write(0);
      FSDataOutputStream late = zombie.open(1);
      job.abortFromAnotherThread();
      late.close();
      // SIGKILL: the attempt neither commits nor aborts
      assertEquals(List.of(marker(job), record(job, 0), zombie.name(1)), keys(bucket));
      Configuration conf = new Configuration(false);
      p.s3aOptions().forEach(conf::set);
      try (DirectJobCleaner cleaner = DirectJobCleaner.open(job.output, conf)) {
        assertEquals(List.of(job.uuid), cleaner.pendingJobs());
        cleaner.clean(job.uuid);
      }
      assertEquals(List.of(marker(job)), keys(bucket), "the late file found past the gap the abort left");
    }
  }

  /**
   * Through Spark (local mode, one attempt per task): task 0 has uploaded its first file and is writing its second
   * when task 1 fails and Spark aborts the job; then task 0 goes on (a task Spark is cancelling) and uploads after
   * the abort. Whatever ends it (the kill, or the output commit coordinator's denial), its task abort finds the
   * marker: nothing of the job is left.
   */
  @Test
  void throughSparkATaskStillWritingAfterTheJobAbortLeavesNothing(S3TestBucket bucket) throws Exception {
    try (ProxiedBucket p = new ProxiedBucket(bucket);
        SparkSession spark = SparkSessions.local("late-upload-after-job-abort", "local[2,1]", p.s3aOptions(),
            DirectCommitters.parquet().sparkConf())) {
      Dataset<Row> data = FailingWrites.prepare(SmokeJob.dataset(spark, 4_000), 2);
      FailingWrites.hold(0, 700); // c000 (500 rows) uploaded, c001 open
      FailingWrites.arm(1, 1, 300); // fails once task 0 is held
      try {
        Exception e = assertThrows(Exception.class, () -> data.write().mode(SaveMode.Append)
            .option("maxRecordsPerFile", 500).parquet(bucket.s3a("table")));
        assertTrue(e.toString().contains("Job aborted") || e.toString().contains("injected"), e.toString());
        assertTrue(FailingWrites.awaitHeld(0), "task 0 was held when the job failed");
        List<String> afterAbort = keys(bucket);
        assertTrue(afterAbort.stream().anyMatch(k -> k.endsWith("/job-aborted.json")), afterAbort.toString());
        assertTrue(afterAbort.stream().noneMatch(k -> k.endsWith(".parquet")), "the abort deleted c000: "
            + afterAbort);
      } finally {
        FailingWrites.releaseHeld();
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (runningTasks(spark) > 0 && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      assertEquals(0, runningTasks(spark), "task 0 ended");
      FailingWrites.disarm();
      List<String> left = keys(bucket);
      assertEquals(1, left.size(), "only the job-abort marker: " + left);
      // the job's id: Spark's write job UUID (Spark 3.5) or its Hadoop job id (Spark 4: job_<time>_<n>)
      assertTrue(left.get(0).matches("_objectcommit_direct/[^/]+/job-aborted\\.json"), left.toString());
      // task 0 uploaded after the abort: a PUT of a Parquet file of the table answered 200 after the marker's PUT
      List<SeenRequest> requests = p.proxy().requests();
      int markerPut = -1;
      int latePuts = 0;
      for (int i = 0; i < requests.size(); i++) {
        SeenRequest r = requests.get(i);
        String key = String.valueOf(r.request().key());
        if (r.operation() == S3Operation.PUT && key.endsWith("/job-aborted.json")) {
          markerPut = i;
        } else if (markerPut >= 0 && r.operation() == S3Operation.PUT && key.endsWith(".parquet")
            && r.status() == 200) {
          latePuts++;
        }
      }
      assertTrue(markerPut >= 0, "the marker's PUT was seen");
      if (SPARK_INTERRUPTS_CANCELLED_WRITES) {
        // the interrupt usually closes the attempt's local buffer before its upload; either way its task abort, on
        // the interrupted thread, removed what the attempt left (asserted above)
        LOG.info("uploads of task 0 after the abort's marker: {}", latePuts);
      } else {
        assertTrue(latePuts >= 1, "task 0 uploaded after the abort's marker: " + latePuts);
      }
    }
  }

  /**
   * Spark 4 interrupts the thread of a task it cancels for a failed SQL job: the held task's Parquet writer then
   * usually fails on its closed local buffer and uploads nothing. Spark 3.5 lets the task run on to its end.
   */
  private static final boolean SPARK_INTERRUPTS_CANCELLED_WRITES =
      !org.apache.spark.package$.MODULE$.SPARK_VERSION().startsWith("3.");

  private static int runningTasks(SparkSession spark) {
    int n = 0;
    for (SparkExecutorInfo e : spark.sparkContext().statusTracker().getExecutorInfos()) {
      n += e.numRunningTasks();
    }
    return n;
  }

  private static String marker(Job job) {
    return "_objectcommit_direct/" + job.uuid + "/job-aborted.json";
  }

  @Test
  void anUploadAfterTheJobAbortFinishedIsDeletedByItsAttempt(S3TestBucket bucket) throws Exception {
    try (ProxiedBucket p = new ProxiedBucket(bucket)) {
      p.runStoreChecks();
      Job job = new Job(p, bucket.s3a("table"));
      Task other = job.task(1, 0);
      other.write(0);
      other.committer.commitTask(other.ctx);
      Task zombie = job.task(0, 0);
      zombie.write(0);
      FSDataOutputStream late = zombie.open(1);
      assertEquals(List.of(zombie.name(0), other.name(0)), keys(bucket).stream()
          .filter(k -> !k.startsWith("_objectcommit_direct/")).collect(Collectors.toList()));

      job.abortFromAnotherThread();
      assertEquals(List.of(marker(job), record(job, 0)), keys(bucket), "the abort deleted the job's files, kept its"
          + " marker and the record of the attempt still writing");

      late.close(); // the upload lands after the job abort has finished
      assertEquals(List.of(marker(job), record(job, 0), zombie.name(1)), keys(bucket),
          "the late upload is in the destination");

      RequestCounts before = p.proxy().counts();
      JobAbortedException e = assertThrows(JobAbortedException.class, () -> zombie.committer.commitTask(zombie.ctx));
      RequestCounts commit = p.proxy().counts().minus(before);
      assertEquals(job.uuid, e.jobId());
      assertTrue(e.getMessage().contains(marker(job)) && e.getMessage().contains("deleted the 2 file(s)"),
          e.getMessage());
      zombie.committer.abortTask(zombie.ctx); // as Spark does after a failed task commit
      assertEquals(List.of(marker(job)), keys(bucket), "no object of the late attempt left, no task record");
      // the marker read, the attempt's files deleted, its task record read again and deleted (nothing else in it)
      assertEquals(2, commit.of(S3Operation.GET, 200), commit.toString());
      assertEquals(1, commit.of(S3Operation.BULK_DELETE), commit.toString());
      assertEquals(1, commit.of(S3Operation.DELETE), commit.toString());
      assertEquals(4, commit.total(), commit.toString());
    }
  }

  @Test
  void aLateAttemptKilledInsteadOfCommittingLeavesNothingAndTaskCommitCostsOneGet(S3TestBucket bucket)
      throws Exception {
    try (ProxiedBucket p = new ProxiedBucket(bucket)) {
      p.runStoreChecks();
      Job job = new Job(p, bucket.s3a("table"));
      Task t = job.task(0, 0);
      RequestCounts before = p.proxy().counts();
      t.write(0);
      t.write(1);
      t.committer.commitTask(t.ctx);
      RequestCounts task = p.proxy().counts().minus(before);
      assertEquals(1, task.of(S3Operation.GET), "one read of the job-abort marker per task: " + task);
      assertEquals(1, task.of(S3Operation.GET, 404), task.toString());
      assertEquals(2 + 2, task.of(S3Operation.PUT), "2 uploads, the task record's declaration and commit: " + task);
      assertEquals(5, task.total(), task.toString());

      Task zombie = job.task(1, 0);
      FSDataOutputStream late = zombie.open(0);
      job.abortFromAnotherThread();
      late.close(); // declares the task anew and uploads, after the abort
      zombie.write(1);
      assertEquals(List.of(marker(job), "_objectcommit_direct/" + job.uuid + "/tasks/m-000001.json", zombie.name(0),
          zombie.name(1)), keys(bucket), "the marker, the late attempt's task record made anew and its two files");
      zombie.committer.abortTask(zombie.ctx); // Spark kills the cancelled task
      assertEquals(List.of(marker(job)), keys(bucket), "no object of the job left, no task record");
    }
  }
}
