package io.objectcommit.staging;

import org.apache.hadoop.fs.PathIOException;

/**
 * A task commit found that its job had been aborted meanwhile (the job-abort marker exists): the attempt aborted its
 * own uploads and deleted its record, so nothing of it stays pending. Carries the record's path, the job id and the
 * attempt.
 */
public class JobAbortedException extends PathIOException {

  private static final long serialVersionUID = 1L;

  private final String jobId;

  public JobAbortedException(String recordPath, String jobId, String attemptId) {
    super(recordPath, "task commit of attempt " + attemptId + ": job " + jobId
        + " was aborted while the task committed; its uploads were aborted");
    this.jobId = jobId;
  }

  public String jobId() {
    return jobId;
  }
}
