package io.objectcommit.commit.spark;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.commit.TaskRecordHandOver;
import io.objectcommit.store.spark.SparkRuntime;
import java.util.OptionalInt;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.spark.SparkEnv;
import org.apache.spark.internal.io.FileCommitProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spark's task commit message (its {@code obj} unchanged, as Spark's job commit reads it) with the committed task
 * record beside it: how the direct and the staging commit protocols carry a task's record to the driver, in the
 * message Spark sends anyway for every committed task. One class for every Spark line (its constructor and
 * {@code obj()} are the same on Scala 2.12 and 2.13).
 */
public final class TaskRecordCommitMessage extends FileCommitProtocol.TaskCommitMessage {

  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(TaskRecordCommitMessage.class);

  /** Spark's bound on a job's task results together: {@value}. */
  static final String MAX_RESULT_SIZE = "spark.driver.maxResultSize";
  /** Its default: 1g. */
  static final long DEFAULT_MAX_RESULT_SIZE = 1L << 30;

  private final CommittedTaskRecord record;

  TaskRecordCommitMessage(Object sparkMessage, CommittedTaskRecord record) {
    super(sparkMessage);
    this.record = record;
  }

  /** The record the task's attempt committed. */
  public CommittedTaskRecord record() {
    return record;
  }

  /**
   * On the task, from a protocol's {@code commitTask}: Spark's message with the record {@code committer} just
   * committed, or Spark's message unchanged when the committer carries none (or is not one of ours) or the record is
   * over this task's share of the driver's result budget ({@link #withinResultBudget}).
   */
  public static FileCommitProtocol.TaskCommitMessage carry(FileCommitProtocol.TaskCommitMessage sparks,
      OutputCommitter committer) {
    return carry(sparks, committer, SparkRuntime.jvm().taskPartitions(), maxResultSize());
  }

  static FileCommitProtocol.TaskCommitMessage carry(FileCommitProtocol.TaskCommitMessage sparks,
      OutputCommitter committer, OptionalInt tasks, long maxResultSize) {
    CommittedTaskRecord r = committer instanceof TaskRecordHandOver
        ? ((TaskRecordHandOver) committer).committedTaskRecord() : null;
    if (r == null) {
      return sparks;
    }
    if (!withinResultBudget(r.size(), tasks, maxResultSize)) {
      LOG.debug("Task record {} not carried to the driver: over a quarter of {}={} shared by {} tasks", r,
          MAX_RESULT_SIZE, maxResultSize, tasks);
      return sparks;
    }
    return new TaskRecordCommitMessage(sparks.obj(), r);
  }

  /**
   * Whether a record of {@code bytes} may ride in a task's result: Spark fails a job whose task results together
   * exceed {@code spark.driver.maxResultSize} (1g by default; 0 for no limit), so the records of a stage of
   * {@code tasks} tasks take at most a quarter of it together; with the task count unknown nothing is carried.
   */
  static boolean withinResultBudget(long bytes, OptionalInt tasks, long maxResultSize) {
    if (tasks.isEmpty() || tasks.getAsInt() <= 0) {
      return false;
    }
    return maxResultSize <= 0 || bytes * tasks.getAsInt() <= maxResultSize / 4;
  }

  /** {@code spark.driver.maxResultSize} of this JVM's Spark, or Spark's default without one. */
  private static long maxResultSize() {
    SparkEnv env = SparkEnv.get();
    return env == null ? DEFAULT_MAX_RESULT_SIZE : env.conf().getSizeAsBytes(MAX_RESULT_SIZE, "1g");
  }

  /** On the driver, from a protocol's {@code onTaskCommit}: hands the message's record to the job's committer. */
  public static void deliver(FileCommitProtocol.TaskCommitMessage message, OutputCommitter committer) {
    if (message instanceof TaskRecordCommitMessage && committer instanceof TaskRecordHandOver) {
      ((TaskRecordHandOver) committer).handOver(((TaskRecordCommitMessage) message).record());
    }
  }
}
