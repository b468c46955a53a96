package io.objectcommit.direct;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.commit.TaskRecordHandOver;
import io.objectcommit.direct.impl.DirectOrClassic;
import java.io.IOException;
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
public class DirectPathOutputCommitter extends PathOutputCommitter implements TaskRecordHandOver {

  private final Path outputPath;
  private final DirectOrClassic protocol;

  public DirectPathOutputCommitter(Path outputPath, TaskAttemptContext context) throws IOException {
    super(outputPath, context);
    this.outputPath = outputPath;
    this.protocol = new DirectOrClassic(outputPath, context, getClass().getSimpleName(), FileOutputCommitter::new,
        null);
  }

  @Override
  public Path getOutputPath() {
    return outputPath;
  }

  @Override
  public Path getWorkPath() throws IOException {
    return protocol.getWorkPath();
  }

  @Override
  public void setupJob(JobContext job) throws IOException {
    protocol.setupJob(job);
  }

  @Override
  public void setupTask(TaskAttemptContext task) throws IOException {
    protocol.setupTask(task);
  }

  @Override
  public boolean needsTaskCommit(TaskAttemptContext task) throws IOException {
    return protocol.needsTaskCommit(task);
  }

  @Override
  public void commitTask(TaskAttemptContext task) throws IOException {
    protocol.commitTask(task);
  }

  @Override
  public CommittedTaskRecord committedTaskRecord() {
    return protocol.committedTaskRecord();
  }

  @Override
  public void handOver(CommittedTaskRecord record) {
    protocol.handOver(record);
  }

  @Override
  public void abortTask(TaskAttemptContext task) throws IOException {
    protocol.abortTask(task);
  }

  @Override
  public void commitJob(JobContext job) throws IOException {
    protocol.commitJob(job);
  }

  @Override
  public void abortJob(JobContext job, JobStatus.State state) throws IOException {
    protocol.abortJob(job, state);
  }

  @Override
  public void cleanupJob(JobContext job) throws IOException {
    protocol.cleanupJob(job);
  }

  @Override
  public boolean isRecoverySupported() {
    return false;
  }

  @Override
  public String toString() {
    return "DirectPathOutputCommitter{" + protocol + "}";
  }
}
