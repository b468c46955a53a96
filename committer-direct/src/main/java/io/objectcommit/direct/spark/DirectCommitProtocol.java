package io.objectcommit.direct.spark;

import io.objectcommit.direct.CommittedTaskRecord;
import io.objectcommit.direct.TaskRecordHandOver;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.spark.internal.io.FileCommitProtocol;
import org.apache.spark.sql.execution.datasources.SQLHadoopMapReduceCommitProtocol;

/**
 * Spark's default commit protocol ({@code SQLHadoopMapReduceCommitProtocol}) that also carries each committed
 * task's record of the direct committer to the driver ({@code spark.sql.sources.commitProtocolClass}). Job commit
 * then lists the job's records once and reads only those another attempt changed since, instead of one GET per
 * task: at 200 tasks, one request where there were 203. Everything else is Spark's default protocol, unchanged;
 * with another committer, or the classic fallback, nothing is carried and nothing changes.
 *
 * <p>The record rides in Spark's task commit message, which Spark already sends to the driver for every
 * committed task (at most {@link CommittedTaskRecord#MAX_BYTES} each; a larger record is read at job commit). Only
 * methods whose signatures are the same on every Spark line are overridden (no Scala collection in them), so one
 * class serves Spark 3.5 and 4.
 */
public class DirectCommitProtocol extends SQLHadoopMapReduceCommitProtocol {

  private static final long serialVersionUID = 1L;

  /** The direct committer of this protocol's job (driver) or task attempt (executor), once set up; else null. */
  private transient volatile TaskRecordHandOver direct;

  public DirectCommitProtocol(String jobId, String path, boolean dynamicPartitionOverwrite) {
    super(jobId, path, dynamicPartitionOverwrite);
  }

  public DirectCommitProtocol(String jobId, String path) {
    this(jobId, path, false);
  }

  @Override
  public OutputCommitter setupCommitter(TaskAttemptContext context) {
    OutputCommitter committer = super.setupCommitter(context);
    direct = committer instanceof TaskRecordHandOver ? (TaskRecordHandOver) committer : null;
    return committer;
  }

  /** Spark's task commit, whose message also carries the direct committer's committed task record. */
  @Override
  public FileCommitProtocol.TaskCommitMessage commitTask(TaskAttemptContext taskContext) {
    FileCommitProtocol.TaskCommitMessage message = super.commitTask(taskContext);
    TaskRecordHandOver committer = direct;
    CommittedTaskRecord record = committer == null ? null : committer.committedTaskRecord();
    return record == null ? message : new DirectTaskCommitMessage(message.obj(), record);
  }

  /** On the driver, as each task commits: its record goes to the job's committer, for job commit. */
  @Override
  public void onTaskCommit(FileCommitProtocol.TaskCommitMessage taskCommit) {
    super.onTaskCommit(taskCommit);
    TaskRecordHandOver committer = direct;
    if (committer != null && taskCommit instanceof DirectTaskCommitMessage) {
      committer.handOver(((DirectTaskCommitMessage) taskCommit).record());
    }
  }
}
