package io.objectcommit.store.files;

import org.apache.hadoop.fs.PathIOException;

/**
 * A persisted record cannot be used: not JSON, truncated, of another type, of a version this code does not
 * understand, or failing validation. Never read as an empty or default record.
 */
public class CorruptRecordException extends PathIOException {

  private static final long serialVersionUID = 1L;

  public CorruptRecordException(String path, String problem, Throwable cause) {
    super(path, problem);
    if (cause != null) {
      initCause(cause);
    }
  }
}
