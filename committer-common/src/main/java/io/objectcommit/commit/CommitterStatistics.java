package io.objectcommit.commit;

import io.objectcommit.commit.files.SuccessData;

/**
 * Names of the committers' statistics, snake_case, as they appear in task records and in {@code _SUCCESS}
 * ({@code metrics}). Names without a committer in their comment are written by both.
 */
public final class CommitterStatistics {

  private CommitterStatistics() {
  }

  /** Files job commit made visible (all of them, not only those {@code filenames} lists): {@value}. */
  public static final String FILES_COMMITTED = SuccessData.METRIC_FILES_COMMITTED;
  /** Bytes of those files: {@value}. */
  public static final String BYTES_COMMITTED = SuccessData.METRIC_BYTES_COMMITTED;
  /** Task records job commit read (the committed tasks): {@value}. */
  public static final String JOB_TASKS = "job_tasks";
  /** Duration of job commit up to writing {@code _SUCCESS}: {@value}. */
  public static final String JOB_COMMIT_MS = "job_commit_ms";

  /** Files a task committed (in its task record): {@value}. */
  public static final String TASK_FILES = "task_files";
  /** Files a task's record carries itself, written by job commit with one PUT each: {@value}. Staging. */
  public static final String TASK_FILES_INLINE = "task_files_inline";
  /** Bytes a task uploaded (in its task record): {@value}. */
  public static final String TASK_BYTES = "task_bytes";
  /** Duration of a task commit (in its task record): {@value}. */
  public static final String TASK_COMMIT_MS = "task_commit_ms";
  /** Sum of the task commits' durations: {@value}. Staging. */
  public static final String TASK_COMMIT_MS_TOTAL = "task_commit_ms_total";

  /**
   * Files of attempts that did not commit (crashed, superseded, or tasks that never committed) deleted by job
   * commit: {@value}. Direct: its tasks write final keys, so such files are visible until then.
   */
  public static final String JOB_LEFTOVERS_DELETED = "job_leftovers_deleted";

  /** Partition directories written: {@value}. Staging (partitioned, or dynamic partition overwrite). */
  public static final String JOB_PARTITIONS = "job_partitions";
  /** Old objects deleted by {@code replace} or Spark's overwrite: {@value}. Staging. */
  public static final String JOB_OLD_OBJECTS_DELETED = "job_old_objects_deleted";
  /** Pending uploads of the job no task record names (attempts that died in task commit) aborted: {@value}. Staging. */
  public static final String JOB_UPLOADS_SWEPT = "job_uploads_swept";
  /** Files job commit wrote from the task records (small files carried in them): {@value}. Staging. */
  public static final String JOB_FILES_INLINE = "job_files_inline";
  /** Task records read a second time because they did not fit the cache: {@value}. Staging. */
  public static final String JOB_RECORDS_RELOADED = "job_records_reloaded";
  /**
   * Task records job commit took from the commit protocol's hand-over (their listed ETag the committed one) instead of
   * reading them: {@value}. Staging.
   */
  public static final String JOB_RECORDS_HANDED_OVER = "job_records_handed_over";
  /** The most pending uploads job commit held in memory at once: {@value}. Staging. */
  public static final String JOB_UPLOADS_HELD_MAX = "job_uploads_held_max";

  /** Prefix of the task attempts' store statistics summed into {@code _SUCCESS}'s iostatistics: {@value}. */
  public static final String TASK_PREFIX = "task.";
}
