package io.objectcommit.commit;


import io.objectcommit.store.StoreConstants;

/**
 * Keys shared by the committers, each beside its default.
 * Like every {@code fs.objectcommit.*} key they can be set per bucket
 * ({@code fs.objectcommit.bucket.<bucket>.job.uuid}).
 */
public final class CommitConstants {

  private CommitConstants() {
  }

  /**
   * The job's unique id when the engine does not give one (Spark SQL sets {@value #SPARK_WRITE_JOB_UUID};
   * otherwise the Hadoop job id is used): {@value}.
   */
  public static final String JOB_UUID = StoreConstants.PREFIX + "job.uuid";

  /** The write job's UUID that Spark SQL sets in the job configuration: {@value}. */
  public static final String SPARK_WRITE_JOB_UUID = "spark.sql.sources.writeJobUUID";

  /** The Hadoop job id in the job configuration, which Spark's commit protocol sets before job setup: {@value}. */
  public static final String HADOOP_JOB_ID_KEY = "mapreduce.job.id";

  /**
   * Internal, set by job setup: the job id it resolved, which tasks and job commit then use ({@link JobId#pinTo}):
   * {@value}. Spark 4.2 calls job setup before it sets {@value #SPARK_WRITE_JOB_UUID}, so without it the driver and
   * the tasks would name the job differently.
   */
  public static final String INTERNAL_JOB_ID = StoreConstants.PREFIX + "internal.job-id";
  /** Internal, beside {@link #INTERNAL_JOB_ID}: where job setup found the id ({@link JobId#source()}): {@value}. */
  public static final String INTERNAL_JOB_ID_SOURCE = StoreConstants.PREFIX + "internal.job-id-source";

  /** Name of the marker job commit writes in the destination: {@value}. */
  public static final String SUCCESS_FILE = "_SUCCESS";
}
