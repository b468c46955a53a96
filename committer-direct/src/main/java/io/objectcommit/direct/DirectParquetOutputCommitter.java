package io.objectcommit.direct;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.commit.TaskRecordHandOver;
import io.objectcommit.direct.impl.DirectCommitEngine;
import io.objectcommit.direct.impl.DirectOrClassic;
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
public class DirectParquetOutputCommitter extends ParquetOutputCommitter implements TaskRecordHandOver {

  private final Path outputPath;
  private final DirectOrClassic protocol;

  public DirectParquetOutputCommitter(Path outputPath, TaskAttemptContext context) throws IOException {
    // The superclass gets no path, so that it creates no file system: in direct mode nothing of it is used, in
    // classic mode every call goes to a ParquetOutputCommitter of our own.
    super(null, context);
    this.outputPath = outputPath;
    Configuration conf = context.getConfiguration();
    this.protocol = new DirectOrClassic(outputPath, context, getClass().getSimpleName(), ParquetOutputCommitter::new,
        committed -> ParquetSummaryFiles.writeIfRequested(conf, committed.location, committed));
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
    return "DirectParquetOutputCommitter{" + protocol + "}";
  }
}
