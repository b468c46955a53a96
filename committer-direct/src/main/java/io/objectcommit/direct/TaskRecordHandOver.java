package io.objectcommit.direct;

/**
 * How a commit protocol carries the direct committers' task records from the tasks to the driver (implemented by
 * {@link DirectParquetOutputCommitter} and {@link DirectPathOutputCommitter}; used by {@link
 * io.objectcommit.direct.spark.DirectCommitProtocol}). Job commit then reads from the store only the records the
 * listing shows changed since, instead of one GET per task.
 */
public interface TaskRecordHandOver {

  /**
   * On the task, after {@code commitTask}: the record this attempt's commit wrote, or null when there is none to
   * carry (the job fell back to the classic committer, the record is larger than
   * {@link CommittedTaskRecord#MAX_BYTES}).
   */
  CommittedTaskRecord committedTaskRecord();

  /** On the driver, before {@code commitJob}: the record a committed task's attempt wrote. */
  void handOver(CommittedTaskRecord record);
}
