package io.objectcommit.staging.impl;

/** Names of the staging committer's statistics (in task records and {@code _SUCCESS}), snake_case. */
public final class StagingStatistics {

  private StagingStatistics() {
  }

  /** Files a task committed: {@value}. */
  public static final String TASK_FILES = "task_files";
  /** Bytes a task uploaded: {@value}. */
  public static final String TASK_BYTES = "task_bytes";
  /** Duration of a task commit: {@value}. */
  public static final String TASK_COMMIT_MS = "task_commit_ms";
  /** Task records job commit read: {@value}. */
  public static final String JOB_TASKS = "job_tasks";
  /** Files job commit completed: {@value}. */
  public static final String JOB_FILES = "job_files";
  /** Bytes of the files job commit completed: {@value}. */
  public static final String JOB_BYTES = "job_bytes";
  /** Partition directories written: {@value}. */
  public static final String JOB_PARTITIONS = "job_partitions";
  /** Old objects deleted by {@code replace} / overwrite: {@value}. */
  public static final String JOB_OLD_OBJECTS_DELETED = "job_old_objects_deleted";
  /** Uploads of this job aborted by the sweep (attempts that died in task commit): {@value}. */
  public static final String JOB_UPLOADS_SWEPT = "job_uploads_swept";
  /** Task records read a second time because they did not fit the cache: {@value}. */
  public static final String JOB_RECORDS_RELOADED = "job_records_reloaded";
  /** The most pending uploads job commit held in memory at once: {@value}. */
  public static final String JOB_UPLOADS_HELD_MAX = "job_uploads_held_max";
  /** Duration of job commit: {@value}. */
  public static final String JOB_COMMIT_MS = "job_commit_ms";
  /** Sum of the task commits' durations: {@value}. */
  public static final String TASK_COMMIT_MS_TOTAL = "task_commit_ms_total";
}
