package io.objectcommit.direct;

import io.objectcommit.direct.impl.DirectCommitEngine;
import io.objectcommit.direct.impl.DirectCommitEngine.Mode;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;

/**
 * The format-independent direct committer (Parquet, ORC, CSV, JSON, text...), created by
 * {@link DirectCommitterFactory} for Spark's {@code PathOutputCommitProtocol} or any Hadoop job that uses
 * {@code PathOutputCommitterFactory}. Same protocol as {@link DirectParquetOutputCommitter}; its classic fallback
 * is Hadoop's {@link FileOutputCommitter}. It writes no Parquet summary files.
 */
public class DirectPathOutputCommitter extends PathOutputCommitter {

  private final Path outputPath;
  private final TaskAttemptContext context;
  private final DirectCommitEngine engine;
  private Mode mode;
  private FileOutputCommitter classic;

  public DirectPathOutputCommitter(Path outputPath, TaskAttemptContext context) throws IOException {
    super(outputPath, context);
    this.outputPath = outputPath;
    this.context = context;
    this.engine = new DirectCommitEngine(outputPath, context.getConfiguration(), getClass().getSimpleName());
  }

  private FileOutputCommitter classic(Configuration conf) throws IOException {
    if (mode == null) {
      mode = engine.mode(conf);
    }
    if (mode != Mode.CLASSIC) {
      return null;
    }
    if (classic == null) {
      classic = new FileOutputCommitter(outputPath, context);
    }
    return classic;
  }

  @Override
  public Path getOutputPath() {
    return outputPath;
  }

  @Override
  public Path getWorkPath() throws IOException {
    FileOutputCommitter c = classic(context.getConfiguration());
    return c != null ? c.getWorkPath() : engine.workPath(context);
  }

  @Override
  public void setupJob(JobContext job) throws IOException {
    mode = engine.setupJob(job);
    FileOutputCommitter c = classic(job.getConfiguration());
    if (c != null) {
      c.setupJob(job);
    }
  }

  @Override
  public void setupTask(TaskAttemptContext task) throws IOException {
    FileOutputCommitter c = classic(task.getConfiguration());
    if (c != null) {
      c.setupTask(task);
    } else {
      engine.setupTask(task);
    }
  }

  @Override
  public boolean needsTaskCommit(TaskAttemptContext task) throws IOException {
    FileOutputCommitter c = classic(task.getConfiguration());
    return c != null ? c.needsTaskCommit(task) : true;
  }

  @Override
  public void commitTask(TaskAttemptContext task) throws IOException {
    FileOutputCommitter c = classic(task.getConfiguration());
    if (c != null) {
      c.commitTask(task);
    } else {
      engine.commitTask(task);
    }
  }

  @Override
  public void abortTask(TaskAttemptContext task) throws IOException {
    FileOutputCommitter c = classic(task.getConfiguration());
    if (c != null) {
      c.abortTask(task);
    } else {
      engine.abortTask(task);
    }
  }

  @Override
  public void commitJob(JobContext job) throws IOException {
    FileOutputCommitter c = classic(job.getConfiguration());
    if (c != null) {
      c.commitJob(job);
    } else {
      engine.commitJob(job, null);
    }
  }

  @Override
  public void abortJob(JobContext job, JobStatus.State state) throws IOException {
    FileOutputCommitter c = classic(job.getConfiguration());
    if (c != null) {
      c.abortJob(job, state);
    } else {
      engine.abortJob(job);
    }
  }

  @Override
  public void cleanupJob(JobContext job) throws IOException {
    FileOutputCommitter c = classic(job.getConfiguration());
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
    return "DirectPathOutputCommitter{" + outputPath + ", mode=" + mode + "}";
  }
}
