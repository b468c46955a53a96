package io.objectcommit.it.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.commit.CommitConstants;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.it.faults.StagingCommitters;
import io.objectcommit.staging.StagingCommitter;
import io.objectcommit.staging.StagingConstants;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import io.objectcommit.testsupport.proxy.RequestCounts;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A speculative second attempt of a task that also reaches task commit, at the same moment as the first (what
 * happens when output-commit coordination is off, or an executor is lost after its attempt committed): exactly one
 * task record is created, the loser's small file (carried in its refused record) never appears, and the job holds
 * exactly one attempt's rows. Driven through the committer's Hadoop API (Spark's local mode never speculates: every
 * attempt would run on the same host), read back with Spark.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class StagingSpeculativeAttemptIT {

  private static final int TASKS = 3;
  private static final int ROWS_PER_TASK = 1_000;

  private static void writeRows(Path workPath, String name, int task) throws Exception {
    File dir = new File(workPath.toUri());
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < ROWS_PER_TASK; i++) {
      sb.append(task * ROWS_PER_TASK + i).append('\n');
    }
    Files.write(new File(dir, name).toPath(), sb.toString().getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void racingAttemptsOfOneTaskCommitExactlyOnce(S3TestBucket bucket) throws Exception {
    try (ProxiedBucket proxied = new ProxiedBucket(bucket)) {
      Configuration conf = new Configuration();
      proxied.s3aOptions().forEach(conf::set);
      StagingCommitters.protocol().sparkConf().forEach((k, v) -> {
        if (k.startsWith("spark.hadoop.")) {
          conf.set(k.substring("spark.hadoop.".length()), v);
        }
      });
      String uuid = UUID.randomUUID().toString();
      conf.set(CommitConstants.SPARK_WRITE_JOB_UUID, uuid);
      conf.setInt(StagingConstants.TASK_COUNT, TASKS); // outside a Spark task: no TaskContext
      Path dest = new Path(bucket.s3a("spec"));
      JobID jobId = new JobID("spec", 1);

      JobContextImpl job = new JobContextImpl(conf, jobId);
      StagingCommitter driver = new StagingCommitter(dest, job);
      driver.setupJob(job);
      // the bucket's store checks run once per bucket in this JVM: run them now so that what is counted below is
      // the protocol's requests only
      proxied.runStoreChecks();
      RequestCounts before = proxied.proxy().counts();

      ExecutorService pool = Executors.newFixedThreadPool(2);
      CyclicBarrier bothReady = new CyclicBarrier(2);
      List<Future<Void>> attempts = new ArrayList<>();
      for (int attempt = 0; attempt < 2; attempt++) {
        TaskAttemptContext ctx = new TaskAttemptContextImpl(conf,
            new TaskAttemptID(new TaskID(jobId, TaskType.MAP, 1), attempt));
        StagingCommitter c = new StagingCommitter(dest, ctx);
        c.setupTask(ctx);
        writeRows(c.getWorkPath(), "part-00001-" + uuid + "-attempt" + attempt + ".txt", 1);
        attempts.add(pool.submit(() -> {
          bothReady.await();
          c.commitTask(ctx);
          return null;
        }));
      }
      for (Future<Void> f : attempts) {
        f.get(); // the loser reports success: its task is committed by the other attempt
      }
      pool.shutdown();
      for (int task : new int[] {0, 2}) {
        TaskAttemptContext ctx = new TaskAttemptContextImpl(conf,
            new TaskAttemptID(new TaskID(jobId, TaskType.MAP, task), 0));
        StagingCommitter c = new StagingCommitter(dest, ctx);
        c.setupTask(ctx);
        writeRows(c.getWorkPath(), "part-0000" + task + "-" + uuid + ".txt", task);
        c.commitTask(ctx);
      }
      // the losing attempt's exclusive create is refused (412); its small file rode in that record, so it uploaded
      // nothing and has nothing to abort; the bucket's store check (which sends refused PUTs of its own) ran before
      // the counting began
      RequestCounts used = proxied.proxy().counts().minus(before);
      assertEquals(1, used.of(S3Operation.PUT, 412), used.toString());
      assertEquals(0, used.of(S3Operation.MULTIPART_INITIATE) + used.of(S3Operation.MULTIPART_ABORT),
          used.toString());
      driver.commitJob(job);

      String top = bucket.key("spec/");
      List<String> files = bucket.listKeys("spec/").stream().map(k -> k.substring(top.length()))
          .filter(k -> k.endsWith(".txt")).collect(Collectors.toList());
      assertEquals(TASKS, files.size(), files.toString());
      assertEquals(1, files.stream().filter(f -> f.startsWith("part-00001-")).count(), files.toString());
      assertEquals(0, bucket.plain().listMultipartUploads(bucket.name(), bucket.key("")).size(),
          "no upload left");
      try (SparkSession spark = SparkSessions.local("spec", proxied.s3aOptions())) {
        long rows = spark.read().text(dest.toString()).count();
        long distinct = spark.read().text(dest.toString()).distinct().count();
        assertEquals((long) TASKS * ROWS_PER_TASK, rows);
        assertEquals(rows, distinct);
      }
      assertTrue(bucket.listKeys("spec/.objectcommit-staging/").isEmpty());
    }
  }
}
