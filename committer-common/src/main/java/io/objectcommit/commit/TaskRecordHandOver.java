package io.objectcommit.commit;

/**
 * How a commit protocol carries a committer's task records from the tasks to the driver (implemented by the direct
 * and the staging committers; used by their Spark commit protocols through {@code spark.TaskRecordCommitMessage}).
 * With every task's record handed over, job commit lists the job's records once and reads from the store only those
 * whose ETag is not the handed-over one, instead of one GET per task.
 */
public interface TaskRecordHandOver {

  /**
   * On the task, after {@code commitTask}: the task's record as stored (the one this attempt's commit wrote or, for
   * a committer whose attempts race for one record, the winning attempt's as read back), or null when there is none
   * to carry (a fallback committer ran, the record could not be read or is larger than
   * {@link CommittedTaskRecord#MAX_BYTES}).
   */
  CommittedTaskRecord committedTaskRecord();

  /** On the driver, before {@code commitJob}: the record a committed task's attempt wrote. */
  void handOver(CommittedTaskRecord record);
}
