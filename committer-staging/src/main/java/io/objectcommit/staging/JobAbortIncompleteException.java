package io.objectcommit.staging;

import org.apache.hadoop.fs.PathIOException;

/**
 * Job abort could not abort every pending upload of the job (or delete every file it had completed); the first
 * failure is the cause. Uploads left behind are invisible but billed: the message names the command that removes
 * them.
 */
public class JobAbortIncompleteException extends PathIOException {

  private static final long serialVersionUID = 1L;

  public JobAbortIncompleteException(String destination, String jobId, String hint, Throwable firstFailure) {
    super(destination, "job " + jobId + ": abort could not remove everything (" + firstFailure + "); " + hint);
    initCause(firstFailure);
  }
}
