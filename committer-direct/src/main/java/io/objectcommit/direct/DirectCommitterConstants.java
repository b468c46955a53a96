package io.objectcommit.direct;

import io.objectcommit.store.guarantee.StoreGuarantee;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * Every configuration key of the direct committer, each beside its default. Keys start with {@value #PREFIX}; in
 * Spark set them as {@code spark.hadoop.<key>}; each can be set per bucket
 * ({@code fs.objectcommit.bucket.<bucket>.direct.<rest>}). They are read once per committer into
 * {@link DirectCommitterOptions}; a bad value fails there, naming the key. Keys shared with the staging committer
 * (the job id, compare-and-swap attempts) are in {@link io.objectcommit.commit.CommitConstants}.
 */
public final class DirectCommitterConstants {

  private DirectCommitterConstants() {
  }

  /**
   * The store guarantees the direct committer asks for at job setup and when a task attempt opens the store
   * (docs/stores.md, "Who needs what"): task records (exclusive create, then compare-and-swap) decide racing task
   * attempts; a failed large write aborts its upload. Not a setting.
   */
  public static final Set<StoreGuarantee> STORE_GUARANTEES = Collections.unmodifiableSet(EnumSet.of(
      StoreGuarantee.IF_NONE_MATCH_PUT, StoreGuarantee.IF_MATCH_PUT, StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE,
      StoreGuarantee.ATOMIC_COMPARE_AND_SWAP, StoreGuarantee.ABORT_KEEPS_EXISTING));

  /** Prefix of the direct committer's keys: {@value}. */
  public static final String PREFIX = "fs.objectcommit.direct.";

  /**
   * What to do when the job may run speculative task attempts ({@code spark.speculation}, or Hadoop's
   * {@code mapreduce.map.speculative} / {@code mapreduce.reduce.speculative} set by the job): {@code fail}
   * (default) fails the job at setup with a message naming the setting and the alternatives; {@code classic}
   * logs a WARN and commits this job with the classic committer (Parquet's / Hadoop's FileOutputCommitter,
   * rename based): {@value}.
   */
  public static final String ON_SPECULATION = PREFIX + "on-speculation";
  public static final String ON_SPECULATION_DEFAULT = "fail";
  public static final String ON_SPECULATION_FAIL = "fail";
  public static final String ON_SPECULATION_CLASSIC = "classic";

  /**
   * Local directory where a task buffers each output file until the file is closed and uploaded; empty means
   * {@code java.io.tmpdir}: {@value}.
   */
  public static final String BUFFER_DIR = PREFIX + "buffer.dir";
  public static final String BUFFER_DIR_DEFAULT = "";

  /**
   * Parallel requests of job commit and job abort: task records are read this many at a time, in windows of at
   * least 64 records (four per thread), so that the driver holds at most one window of reads in flight: {@value}.
   */
  public static final String COMMIT_THREADS = PREFIX + "commit.threads";
  public static final int COMMIT_THREADS_DEFAULT = 16;

  /** At most this many committed files are named in {@code _SUCCESS} (all are counted): {@value}. */
  public static final String SUCCESS_MAX_FILENAMES = PREFIX + "success.max-filenames";
  public static final int SUCCESS_MAX_FILENAMES_DEFAULT = 100;

  /**
   * Set by job setup in the job's configuration (not by users): {@code direct}, or {@code classic} when the
   * speculation guard chose the fallback, so that every task of the job commits the same way: {@value}.
   */
  public static final String INTERNAL_MODE = PREFIX + "internal.mode";

  /** The file system scheme of task work paths (an internal, write-only mapping onto the destination): {@value}. */
  public static final String WORK_SCHEME = "ocdirect";

  /** Directory under the destination that holds the bookkeeping of uncommitted jobs: {@value}. */
  public static final String BOOKKEEPING_DIR = "_objectcommit_direct";

  /** Spark's speculation switch, read from the running Spark context: {@value}. */
  public static final String SPARK_SPECULATION = "spark.speculation";

  /** Hadoop's speculation switches, honoured when the job or site configuration sets them. */
  public static final String MAP_SPECULATIVE = "mapreduce.map.speculative";
  public static final String REDUCE_SPECULATIVE = "mapreduce.reduce.speculative";

  /**
   * The {@code _SUCCESS} diagnostic that gives the number of tasks of the writing stage as Spark told the tasks,
   * {@code unknown} without Spark: when known, job commit read the task records in parallel: {@value}.
   */
  public static final String DIAGNOSTIC_STAGE_TASKS = "stage-tasks";

  /** The committer name written in {@code _SUCCESS}: {@value}. */
  public static final String COMMITTER_NAME = "objectcommit-direct";
}
