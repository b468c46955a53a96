package io.objectcommit.direct.spark;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.commit.spark.TaskRecordCommitMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.spark.internal.io.FileCommitProtocol;
import org.apache.spark.internal.io.FileNameSpec;
import org.apache.spark.sql.execution.datasources.SQLHadoopMapReduceCommitProtocol;
import scala.Option;

/**
 * Spark's default commit protocol ({@code SQLHadoopMapReduceCommitProtocol}) that also carries each committed
 * task's record of the direct committer to the driver ({@code spark.sql.sources.commitProtocolClass}). Job commit
 * then lists the job's records once and reads only those another attempt changed since, instead of one GET per
 * task: at 200 tasks, one request where there were 203. With the committer factory bound to {@code s3a}
 * ({@link io.objectcommit.direct.DirectCommitterFactory}) it also serves every other format, whose committer Hadoop's
 * {@code FileOutputFormat} takes from the factory ({@link #newTaskTempFile}). Everything else is Spark's default
 * protocol, unchanged; with another committer, or the classic fallback, nothing is carried.
 *
 * <p>The record rides in Spark's task commit message, which Spark already sends to the driver for every
 * committed task (at most {@link CommittedTaskRecord#MAX_BYTES} each; a larger record is read at job commit). Only
 * methods whose signatures are the same on every Spark line are overridden (no Scala collection in them), so one
 * class serves Spark 3.5 and 4.
 */
public class DirectCommitProtocol extends SQLHadoopMapReduceCommitProtocol {

  private static final long serialVersionUID = 1L;

  private final boolean dynamicPartitionOverwrite;
  /** The committer of this protocol's job (driver) or task attempt (executor), once set up; else null. */
  private transient volatile OutputCommitter committer;

  public DirectCommitProtocol(String jobId, String path, boolean dynamicPartitionOverwrite) {
    super(jobId, path, dynamicPartitionOverwrite);
    this.dynamicPartitionOverwrite = dynamicPartitionOverwrite;
  }

  public DirectCommitProtocol(String jobId, String path) {
    this(jobId, path, false);
  }

  @Override
  public OutputCommitter setupCommitter(TaskAttemptContext context) {
    OutputCommitter c = super.setupCommitter(context);
    committer = c;
    return c;
  }

  /**
   * Where a task writes a file: Spark's default protocol puts a committer's files under its work path only when it
   * is a {@code FileOutputCommitter}, and straight under the destination otherwise, where the direct
   * {@code PathOutputCommitter} (ORC, CSV, JSON, text through the committer factory) would never see them. Here every
   * {@code PathOutputCommitter}'s work path is used, as spark-hadoop-cloud's {@code PathOutputCommitProtocol} does.
   * Dynamic partition overwrite stays Spark's own (its staging directory and renames).
   */
  @Override
  public String newTaskTempFile(TaskAttemptContext taskContext, Option<String> dir, FileNameSpec spec) {
    OutputCommitter c = committer;
    if (dynamicPartitionOverwrite || !(c instanceof PathOutputCommitter) || c instanceof FileOutputCommitter) {
      return super.newTaskTempFile(taskContext, dir, spec);
    }
    Path work;
    try {
      work = ((PathOutputCommitter) c).getWorkPath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Path parent = dir.isDefined() ? new Path(work, dir.get()) : work;
    return new Path(parent, getFilename(taskContext, spec)).toString();
  }

  /** Spark's task commit, whose message also carries the direct committer's committed task record. */
  @Override
  public FileCommitProtocol.TaskCommitMessage commitTask(TaskAttemptContext taskContext) {
    return TaskRecordCommitMessage.carry(super.commitTask(taskContext), committer);
  }

  /** On the driver, as each task commits: its record goes to the job's committer, for job commit. */
  @Override
  public void onTaskCommit(FileCommitProtocol.TaskCommitMessage taskCommit) {
    super.onTaskCommit(taskCommit);
    TaskRecordCommitMessage.deliver(taskCommit, committer);
  }
}
