package io.objectcommit.commit;

import org.apache.hadoop.fs.PathIOException;

/**
 * A task attempt found that its job had been aborted (the job's {@link JobAbortMarker} exists): the attempt removed
 * what it had written (the staging committer: aborted its uploads and deleted its record; the direct committer:
 * deleted the files it had uploaded) and failed instead of reporting success. Carries the path the attempt was
 * working on, the job id and the attempt.
 */
public class JobAbortedException extends PathIOException {

  private static final long serialVersionUID = 1L;

  private final String jobId;
  private final String attemptId;

  /**
   * @param path the path the attempt was working on (its task record, or the file it had just uploaded)
   * @param detail what the attempt was doing and what it removed
   */
  public JobAbortedException(String path, String jobId, String attemptId, String detail) {
    super(path, "task attempt " + attemptId + ": job " + jobId + " was aborted (its job-abort marker exists); "
        + detail);
    this.jobId = jobId;
    this.attemptId = attemptId;
  }

  public String jobId() {
    return jobId;
  }

  public String attemptId() {
    return attemptId;
  }
}
