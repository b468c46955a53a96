package io.objectcommit.staging;

import io.objectcommit.store.guarantee.StoreGuarantee;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * Every configuration key of the staging committer, each beside its default. All start with {@value #PREFIX} and
 * can be overridden for one bucket as {@code fs.objectcommit.bucket.<bucket>.staging.<rest>}. The S3 connection
 * itself is configured with S3A's {@code fs.s3a.*} keys (see the store module).
 */
public final class StagingConstants {

  private StagingConstants() {
  }

  /**
   * The store guarantees the staging committer asks for at job setup, task commit and job commit and abort
   * (docs/stores.md, "Who needs what"): the task record's exclusive create decides which attempt of a task commits;
   * the losers' uploads, and every upload of an aborted job, are aborted at keys that may hold data. Not a setting.
   */
  public static final Set<StoreGuarantee> STORE_GUARANTEES = Collections.unmodifiableSet(EnumSet.of(
      StoreGuarantee.IF_NONE_MATCH_PUT, StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE, StoreGuarantee.ABORT_KEEPS_EXISTING));

  /** Prefix of the staging committer's keys: {@value}. */
  public static final String PREFIX = "fs.objectcommit.staging.";

  /**
   * Which variant the factory and the Parquet binding create: {@code directory} (conflicts are decided for the
   * whole destination) or {@code partitioned} (for each partition directory written): {@value}.
   */
  public static final String COMMITTER = PREFIX + "committer";
  public static final String COMMITTER_DEFAULT = "directory";

  /**
   * What job commit does when the destination (directory variant) or a partition written (partitioned variant)
   * already holds data: {@code fail}, {@code append} or {@code replace} (delete the old objects at job commit,
   * once every new file is uploaded): {@value}.
   */
  public static final String CONFLICT_MODE = PREFIX + "conflict-mode";
  public static final String CONFLICT_MODE_DEFAULT = "append";

  /**
   * Comma-separated local directories where tasks write their files before task commit uploads them (spread over
   * several disks: each task attempt picks one with enough free space): {@value}. Empty: {@code
   * ${hadoop.tmp.dir}/objectcommit-staging}.
   */
  public static final String BUFFER_DIRS = PREFIX + "buffer.dirs";
  public static final String BUFFER_DIRS_DEFAULT = "";

  /** Hadoop's temporary directory, under which the default buffer directory lies: {@value}. */
  public static final String HADOOP_TMP_DIR = "hadoop.tmp.dir";

  /** A buffer directory with less free space than this is not used for a new task attempt: {@value}. */
  public static final String BUFFER_MIN_FREE = PREFIX + "buffer.min-free";
  public static final long BUFFER_MIN_FREE_DEFAULT = 64L * 1024 * 1024;

  /**
   * At task start, local job directories in {@link #BUFFER_DIRS} unchanged for longer than this and held by no
   * live task attempt are deleted (what executors that died left behind); a duration such as {@code 7d} or
   * {@code 12h}: {@value}.
   */
  public static final String BUFFER_MAX_AGE = PREFIX + "buffer.max-age";
  public static final String BUFFER_MAX_AGE_DEFAULT = "7d";
  /** {@link #BUFFER_MAX_AGE_DEFAULT} in milliseconds. */
  public static final long BUFFER_MAX_AGE_DEFAULT_MS = 7L * 24 * 3_600_000L;

  /**
   * Size of each uploaded part (at least 5 MiB); a file up to this size is one part: {@value}. Unset: S3A's
   * {@code fs.s3a.multipart.size} (default 64M).
   */
  public static final String PART_SIZE = PREFIX + "part-size";

  /**
   * Small files carried inside the task record instead of as pending uploads: at task commit the attempt's files of
   * at most {@link #INLINE_FILE_BYTES}, smallest first, go into its record while their total stays within this many
   * bytes (0: none); job commit writes each with one PUT. Such a file costs one request instead of three (initiate,
   * part, complete) and stays invisible until job commit as an upload does; job commit holds at most this much file
   * data per record it reads (a window of {@code max(64, 4 x commit.threads)} records): {@value}.
   */
  public static final String INLINE_TASK_BYTES = PREFIX + "inline.task-bytes";
  public static final long INLINE_TASK_BYTES_DEFAULT = 1L << 20;
  /** The largest {@link #INLINE_TASK_BYTES} accepted (a record is read whole into the driver's memory): 16 MiB. */
  public static final long INLINE_TASK_BYTES_MAX = 16L << 20;

  /**
   * The largest file a task record carries ({@link #INLINE_TASK_BYTES}): a carried file's bytes travel through the
   * record and the driver, so only files whose two saved requests outweigh that are carried: {@value}.
   */
  public static final String INLINE_FILE_BYTES = PREFIX + "inline.file-bytes";
  public static final long INLINE_FILE_BYTES_DEFAULT = 128L << 10;

  /** Parallel uploads of one task commit: {@value}. */
  public static final String UPLOAD_THREADS = PREFIX + "upload.threads";
  public static final int UPLOAD_THREADS_DEFAULT = 8;

  /** Parallel requests of job commit and job abort (loading records, completing and aborting uploads): {@value}. */
  public static final String COMMIT_THREADS = PREFIX + "commit.threads";
  public static final int COMMIT_THREADS_DEFAULT = 16;

  /**
   * Job commit keeps loaded task records in memory for its second pass while they hold at most this many pending
   * uploads in total; records beyond are read again (one more GET per task) instead: {@value}.
   */
  public static final String COMMIT_CACHED_UPLOADS = PREFIX + "commit.cached-uploads";
  public static final int COMMIT_CACHED_UPLOADS_DEFAULT = 20_000;

  /** Most file names listed in {@code _SUCCESS} (S3A lists 100): {@value}. */
  public static final String SUCCESS_FILENAMES_LIMIT = PREFIX + "success.filenames-limit";
  public static final int SUCCESS_FILENAMES_LIMIT_DEFAULT = 100;

  /**
   * Whether job commit and job abort also list the incomplete uploads under the destination and abort those of
   * this job (their key contains the job's UUID) that no task record names: uploads of a task attempt that died
   * during task commit: {@value}.
   */
  public static final String SWEEP_UPLOADS = PREFIX + "sweep-uploads";
  public static final boolean SWEEP_UPLOADS_DEFAULT = true;

  /**
   * The number of tasks of a job, for runs outside Spark (inside Spark each task record carries the stage's
   * partition count from {@code TaskContext}); 0: unknown: {@value}.
   */
  public static final String TASK_COUNT = PREFIX + "task-count";
  public static final int TASK_COUNT_DEFAULT = 0;

  /** Name of the directory under the destination that holds the job's task records: {@value}. */
  public static final String STAGING_DIR_NAME = ".objectcommit-staging";

  /**
   * Set by {@link io.objectcommit.staging.spark.StagingCommitProtocol} on the driver: comma-separated paths
   * relative to the destination whose old objects job commit deletes ({@code ""} is the whole destination); the
   * form Spark's {@code SaveMode.Overwrite} takes with this committer: {@value}.
   */
  public static final String REPLACE_PATHS = PREFIX + "internal.replace-paths";

  /**
   * Set by {@link io.objectcommit.staging.spark.StagingCommitProtocol} on the driver for dynamic partition
   * overwrite: replace exactly the partitions written, whatever {@link #CONFLICT_MODE} says: {@value}.
   */
  public static final String DYNAMIC_PARTITION_OVERWRITE = PREFIX + "internal.dynamic-partition-overwrite";
}
