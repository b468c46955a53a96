package io.objectcommit.direct;

import io.objectcommit.commit.CommitConstants;
import io.objectcommit.direct.impl.AttemptRegistry;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryStoreFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;

/**
 * Drives committers the way Spark's commit protocol does, against the in-memory store: one job configuration
 * that job setup may change, copied into each task (as Spark serialises it), committers created per task.
 */
final class Harness {

  static final String BUCKET = "unit-bucket";
  static final String TABLE = "warehouse/table/";
  static final String UUID = "0f8f7c1e-1111-2222-3333-444455556666";
  static final String SPARK_JOB_ID = "9e0c2a55-aaaa-bbbb-cccc-ddddeeeeffff";

  final JobConf jobConf;
  final JobID jobId = new JobID("202611221200", 7);
  final Path output = new Path("s3a://" + BUCKET + "/" + TABLE.substring(0, TABLE.length() - 1));
  final boolean parquet;
  /** A store on the test's bucket, for setup, fault rules, request counts and inspection. */
  final InMemoryObjectStore store;

  Harness(boolean parquet) {
    this.parquet = parquet;
    store = InMemoryObjectStore.register(BUCKET);
    jobConf = new JobConf(false);
    InMemoryStoreFactory.use(jobConf); // the committers get their stores from ObjectStores.open, as in production
    jobConf.set(CommitConstants.SPARK_WRITE_JOB_UUID, UUID);
    jobConf.set("mapreduce.map.speculative", "false");
    jobConf.set("mapreduce.reduce.speculative", "false");
  }

  JobContext job() {
    return new JobContextImpl(jobConf, jobId);
  }

  PathOutputCommitter committer(TaskAttemptContext ctx) throws IOException {
    return parquet ? new DirectParquetOutputCommitter(output, ctx) : new DirectPathOutputCommitter(output, ctx);
  }

  /** The driver's committer (Spark creates it with a task context of task 0, attempt 0). */
  PathOutputCommitter driver() throws IOException {
    return committer(new TaskAttemptContextImpl(jobConf, attemptId(0, 0)));
  }

  /** The driver's committer with the job set up, as Spark's driver does before it runs any task. */
  PathOutputCommitter setUpJob() throws IOException {
    PathOutputCommitter driver = driver();
    driver.setupJob(job());
    return driver;
  }

  TaskAttemptID attemptId(int task, int attempt) {
    return new TaskAttemptID(new TaskID(jobId, TaskType.MAP, task), attempt);
  }

  /** A task attempt: its own copy of the job configuration, its committer, set up. */
  Attempt attempt(int task, int attempt) throws IOException {
    TaskAttemptContext ctx = new TaskAttemptContextImpl(new JobConf(jobConf), attemptId(task, attempt));
    PathOutputCommitter c = committer(ctx);
    c.setupTask(ctx);
    return new Attempt(ctx, c, task);
  }

  static String fileName(int task, int counter) {
    return String.format("part-%05d-%s-c%03d.snappy.parquet", task, SPARK_JOB_ID, counter);
  }

  static String key(String rel) {
    return TABLE + rel;
  }

  List<String> keys() {
    return store.keys("");
  }

  /** The key of the job-abort marker of the harness's job. */
  String abortMarkerKey() {
    return TABLE + "_objectcommit_direct/" + UUID + "/job-aborted.json";
  }

  List<String> outputKeys() {
    return keys().stream().filter(k -> !k.contains("_objectcommit_direct")).collect(Collectors.toList());
  }

  /** One task attempt as Spark runs it. */
  static final class Attempt {
    final TaskAttemptContext ctx;
    final PathOutputCommitter committer;
    final int task;

    Attempt(TaskAttemptContext ctx, PathOutputCommitter committer, int task) {
      this.ctx = ctx;
      this.committer = committer;
      this.task = task;
    }

    /** Writes a file under the work path, as Spark's writers do (path.getFileSystem(taskConf).create). */
    String write(String dir, int counter, String content) throws IOException {
      String name = fileName(task, counter);
      Path parent = dir.isEmpty() ? committer.getWorkPath() : new Path(committer.getWorkPath(), dir);
      Path p = new Path(parent, name);
      try (FSDataOutputStream out = p.getFileSystem(ctx.getConfiguration()).create(p, false)) {
        out.write(content.getBytes(StandardCharsets.UTF_8));
      }
      return TABLE + (dir.isEmpty() ? "" : dir + "/") + name;
    }

    String write(int counter) throws IOException {
      return write("", counter, "task " + task + " file " + counter + " attempt " + ctx.getTaskAttemptID());
    }

    void commit() throws IOException {
      if (committer.needsTaskCommit(ctx)) {
        committer.commitTask(ctx);
      }
    }

    void abort() throws IOException {
      committer.abortTask(ctx);
    }

    /** The executor dies: no abortTask, the writer simply vanishes from this JVM. */
    void crash() throws IOException {
      AttemptRegistry.get(ctx.getTaskAttemptID().toString()).close();
    }
  }
}
