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

  /** The Hadoop job id in the job configuration, which Spark's commit protocol sets before job setup: {@value}. */
  public static final String HADOOP_JOB_ID_KEY = "mapreduce.job.id";

  /**
   * Internal, set by job setup: the job id it resolved, which tasks and job commit then use ({@link JobId#pinTo}):
   * {@value}. Spark 4.2 calls job setup before it sets {@value #SPARK_WRITE_JOB_UUID}, so without it the driver and
   * the tasks would name the job differently.
   */
  public static final String INTERNAL_JOB_ID = FsCoreConstants.PREFIX + "internal.job-id";
  /** Internal, beside {@link #INTERNAL_JOB_ID}: where job setup found the id ({@link JobId#source()}): {@value}. */
  public static final String INTERNAL_JOB_ID_SOURCE = FsCoreConstants.PREFIX + "internal.job-id-source";

  /** Name of the marker job commit writes in the destination: {@value}. */
  public static final String SUCCESS_FILE = "_SUCCESS";
}
