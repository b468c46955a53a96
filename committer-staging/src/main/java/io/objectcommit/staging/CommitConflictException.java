package io.objectcommit.staging;

import org.apache.hadoop.fs.PathExistsException;

/**
 * Job commit found data in the destination (or in a partition the job wrote) and the conflict mode is
 * {@code fail} ({@value StagingConstants#CONFLICT_MODE}). Nothing of the job was made visible and its uploads were
 * aborted. Write to an empty destination, or choose {@code append} or {@code replace}.
 */
public class CommitConflictException extends PathExistsException {

  private static final long serialVersionUID = 1L;

  private final String partition;

  /**
   * @param existing the path of an object found there
   * @param partition the partition directory relative to the destination, {@code ""} for the destination itself
   * @param jobId the job
   */
  public CommitConflictException(String existing, String partition, String jobId) {
    super(existing, "the destination " + (partition.isEmpty() ? "" : "partition " + partition + " ")
        + "already holds data and the conflict mode is fail (" + StagingConstants.CONFLICT_MODE + "); nothing of job "
        + jobId + " was made visible: write to an empty destination, or set the conflict mode to append or replace");
    this.partition = partition;
  }

  /** The partition directory relative to the destination, {@code ""} for the destination itself. */
  public String partition() {
    return partition;
  }
}
