package io.objectcommit.staging;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.commit.TaskRecordHandOver;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.parquet.hadoop.ParquetOutputCommitter;

/**
 * The binding for {@code spark.sql.parquet.output.committer.class} (which must name a {@link ParquetOutputCommitter})
 * and for {@link io.objectcommit.staging.spark.StagingCommitProtocol}: every call goes to a {@link StagingCommitter}
 * (variant chosen by {@link StagingConstants#COMMITTER}); nothing of {@code FileOutputCommitter} runs, so no
 * {@code _temporary} directory, no rename and no Parquet summary file.
 */
public class StagingParquetOutputCommitter extends ParquetOutputCommitter implements TaskRecordHandOver {

  private final StagingCommitter committer;

  public StagingParquetOutputCommitter(Path outputPath, TaskAttemptContext context) throws IOException {
    super(outputPath, context);
    this.committer = new StagingCommitter(outputPath, context);
  }

  /** The committer every call goes to. */
  public StagingCommitter committer() {
    return committer;
  }

  /** The task attempt's local buffer directory (never FileOutputCommitter's {@code _temporary} path). */
  @Override
  public Path getWorkPath() throws IOException {
    return committer == null ? super.getWorkPath() : committer.getWorkPath(); // null: inside super's constructor
  }

  @Override
  public Path getOutputPath() {
    return committer == null ? super.getOutputPath() : committer.getOutputPath();
  }

  @Override
  public void setupJob(JobContext context) throws IOException {
    committer.setupJob(context);
  }

  @Override
  public void setupTask(TaskAttemptContext context) throws IOException {
    committer.setupTask(context);
  }

  @Override
  public boolean needsTaskCommit(TaskAttemptContext context) throws IOException {
    return committer.needsTaskCommit(context);
  }

  @Override
  public void commitTask(TaskAttemptContext context) throws IOException {
    committer.commitTask(context);
  }

  @Override
  public void abortTask(TaskAttemptContext context) throws IOException {
    committer.abortTask(context);
  }

  @Override
  public void commitJob(JobContext context) throws IOException {
    committer.commitJob(context);
  }

  @Override
  public void abortJob(JobContext context, JobStatus.State state) throws IOException {
    committer.abortJob(context, state);
  }

  @Override
  public void cleanupJob(JobContext context) throws IOException {
    committer.cleanupJob(context);
  }

  @Override
  public CommittedTaskRecord committedTaskRecord() {
    return committer.committedTaskRecord();
  }

  @Override
  public void handOver(CommittedTaskRecord record) {
    committer.handOver(record);
  }

  @Override
  public boolean isRecoverySupported() {
    return false;
  }

  @Override
  public boolean isRecoverySupported(JobContext context) {
    return false;
  }

  @Override
  public boolean isCommitJobRepeatable(JobContext context) {
    return false;
  }

  @Override
  public void recoverTask(TaskAttemptContext context) throws IOException {
    throw new IOException("the staging committer does not recover tasks");
  }

  @Override
  public String toString() {
    return "StagingParquetOutputCommitter{" + committer + "}";
  }
}
