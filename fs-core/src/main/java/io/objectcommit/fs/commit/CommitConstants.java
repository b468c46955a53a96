package io.objectcommit.fs.commit;

import io.objectcommit.fs.FsCoreConstants;

/**
 * Keys shared by the committers (and, for compare-and-swap, the checkpoint file system), each beside its default.
 * Like every {@code fs.objectcommit.*} key they can be set per bucket
 * ({@code fs.objectcommit.bucket.<bucket>.cas-attempts}).
 */
public final class CommitConstants {

  private CommitConstants() {
  }

  /**
   * Attempts of one compare-and-swap change of a small record (a direct committer task record, a checkpoint
   * directory manifest) while other writers keep changing it, before failing with
   * {@link CasConflictException}: {@value}. The checkpoint file system's
   * {@code fs.objectcommit.checkpoint.s3.cas-attempts}, when set, wins for checkpoints.
   */
  public static final String CAS_ATTEMPTS = FsCoreConstants.PREFIX + "cas-attempts";
  public static final int CAS_ATTEMPTS_DEFAULT = 20;
  /** Bounds of {@link #CAS_ATTEMPTS}. */
  public static final int CAS_ATTEMPTS_MIN = 1;
  public static final int CAS_ATTEMPTS_MAX = 1000;

  /**
   * The job's unique id when the engine does not give one (Spark SQL sets {@value #SPARK_WRITE_JOB_UUID};
   * otherwise the Hadoop job id is used): {@value}.
   */
  public static final String JOB_UUID = FsCoreConstants.PREFIX + "job.uuid";

  /** The write job's UUID that Spark SQL sets in the job configuration: {@value}. */
  public static final String SPARK_WRITE_JOB_UUID = "spark.sql.sources.writeJobUUID";

  /** Name of the marker job commit writes in the destination: {@value}. */
  public static final String SUCCESS_FILE = "_SUCCESS";
}
