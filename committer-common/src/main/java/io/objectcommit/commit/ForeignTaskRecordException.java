package io.objectcommit.commit;

import org.apache.hadoop.fs.PathIOException;

/**
 * A task record does not belong where it was found (another job's id, a task count that disagrees with the
 * job's, a record found after a gap): two jobs share a destination and an id, or the records were copied or
 * edited. Nothing of the job was made visible; remove the stray records (or give the job its own id) and rerun.
 */
public class ForeignTaskRecordException extends PathIOException {

  private static final long serialVersionUID = 1L;

  public ForeignTaskRecordException(String path, String problem) {
    super(path, problem + "; nothing of the job was made visible: remove the stray record or give each job its"
        + " own id (" + CommitConstants.JOB_UUID + "), then rerun");
  }
}
