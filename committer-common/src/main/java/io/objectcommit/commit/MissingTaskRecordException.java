package io.objectcommit.commit;

import java.io.FileNotFoundException;

/**
 * Job commit did not find the record of a task that must have committed: the task never committed with this
 * committer, its record was deleted, or the store does not show it yet. Nothing of the job was made visible;
 * rerun the job.
 */
public class MissingTaskRecordException extends FileNotFoundException {

  private static final long serialVersionUID = 1L;

  private final String path;

  public MissingTaskRecordException(String path, String jobId, String task, String detail) {
    super(path + ": no record of task " + task + " of job " + jobId + (detail.isEmpty() ? "" : " (" + detail + ")")
        + "; nothing of the job was made visible: rerun the job");
    this.path = path;
  }

  public String path() {
    return path;
  }
}
