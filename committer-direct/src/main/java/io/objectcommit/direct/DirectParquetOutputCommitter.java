package io.objectcommit.direct;

import io.objectcommit.direct.impl.DirectCommitEngine;
import io.objectcommit.direct.impl.DirectCommitEngine.Mode;
import io.objectcommit.direct.impl.ParquetSummaryFiles;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.parquet.hadoop.ParquetOutputCommitter;

/**
 * A direct Parquet committer: tasks write their files straight to the final keys (no rename, no copy), and the
 * speculation and task-retry guards of {@link DirectCommitEngine} make sure no partial or duplicate output
 * survives a committed job. Enable it with
 * {@code spark.sql.parquet.output.committer.class=io.objectcommit.direct.DirectParquetOutputCommitter}.
 *
 * <p>When the speculation guard chooses the fallback ({@code fs.objectcommit.direct.on-speculation=classic}),
 * every method behaves as Parquet's own {@link ParquetOutputCommitter}. Summary files ({@code _metadata},
 * {@code _common_metadata}) are written at job commit when {@code parquet.summary.metadata.level} asks for them
 * (Spark sets it to NONE unless the job sets it).
 */
public class DirectParquetOutputCommitter extends ParquetOutputCommitter {

  private final Path outputPath;
  private final TaskAttemptContext context;
  private final DirectCommitEngine engine;
  private Mode mode;
  private ParquetOutputCommitter classic;

  public DirectParquetOutputCommitter(Path outputPath, TaskAttemptContext context) throws IOException {
    // The superclass gets no path, so that it creates no file system: in direct mode nothing of it is used, in
    // classic mode every call goes to a ParquetOutputCommitter of our own.
    super(null, context);
    this.outputPath = outputPath;
    this.context = context;
    this.engine = new DirectCommitEngine(outputPath, context.getConfiguration(), getClass().getSimpleName());
  }

  /** The classic committer when this job falls back to it, else null. */
  private ParquetOutputCommitter classic(Configuration conf) throws IOException {
    if (mode == null) {
      mode = engine.mode(conf);
    }
    if (mode != Mode.CLASSIC) {
      return null;
    }
    if (classic == null) {
      classic = new ParquetOutputCommitter(outputPath, context);
    }
    return classic;
  }

  @Override
  public Path getOutputPath() {
    return outputPath;
  }

  @Override
  public Path getWorkPath() throws IOException {
    ParquetOutputCommitter c = classic(context.getConfiguration());
    return c != null ? c.getWorkPath() : engine.workPath(context);
  }

  @Override
  public void setupJob(JobContext job) throws IOException {
    mode = engine.setupJob(job);
    ParquetOutputCommitter c = classic(job.getConfiguration());
    if (c != null) {
      c.setupJob(job);
    }
  }

  @Override
  public void setupTask(TaskAttemptContext task) throws IOException {
    ParquetOutputCommitter c = classic(task.getConfiguration());
    if (c != null) {
      c.setupTask(task);
    } else {
      engine.setupTask(task);
    }
  }

  @Override
  public boolean needsTaskCommit(TaskAttemptContext task) throws IOException {
    // Always in direct mode: a task's commit records it for job commit even when it wrote nothing.
    ParquetOutputCommitter c = classic(task.getConfiguration());
    return c != null ? c.needsTaskCommit(task) : true;
  }

  @Override
  public void commitTask(TaskAttemptContext task) throws IOException {
    ParquetOutputCommitter c = classic(task.getConfiguration());
    if (c != null) {
      c.commitTask(task);
    } else {
      engine.commitTask(task);
    }
  }

  @Override
  public void abortTask(TaskAttemptContext task) throws IOException {
    ParquetOutputCommitter c = classic(task.getConfiguration());
    if (c != null) {
      c.abortTask(task);
    } else {
      engine.abortTask(task);
    }
  }

  @Override
  public void commitJob(JobContext job) throws IOException {
    ParquetOutputCommitter c = classic(job.getConfiguration());
    if (c != null) {
      c.commitJob(job);
      return;
    }
    Configuration conf = job.getConfiguration();
    engine.commitJob(job, committed -> ParquetSummaryFiles.writeIfRequested(conf, engine.location(), committed));
  }

  @Override
  public void abortJob(JobContext job, JobStatus.State state) throws IOException {
    ParquetOutputCommitter c = classic(job.getConfiguration());
    if (c != null) {
      c.abortJob(job, state);
    } else {
      engine.abortJob(job);
    }
  }

  @Override
  public void cleanupJob(JobContext job) throws IOException {
    ParquetOutputCommitter c = classic(job.getConfiguration());
    if (c != null) {
      c.cleanupJob(job);
    }
  }

  @Override
  public boolean isRecoverySupported() {
    return false;
  }

  @Override
  public String toString() {
    return "DirectParquetOutputCommitter{" + outputPath + ", mode=" + mode + "}";
  }
}
