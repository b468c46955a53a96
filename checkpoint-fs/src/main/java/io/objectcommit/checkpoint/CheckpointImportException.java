package io.objectcommit.checkpoint;

import java.util.List;
import org.apache.hadoop.fs.PathIOException;

/**
 * {@code objectcommit checkpoint import} refused to adopt a checkpoint: it looks live (which {@code --force}
 * overrides), it lacks a file its query needs to resume, the listing lags behind the store, or the target exists
 * as something else. Nothing was written; the message names each reason and the file it is about.
 */
public class CheckpointImportException extends PathIOException {

  private static final long serialVersionUID = 1L;
  private final List<String> reasons;
  private final boolean forceable;

  public CheckpointImportException(String path, List<String> reasons, boolean forceable, String message) {
    super(path, message);
    this.reasons = List.copyOf(reasons);
    this.forceable = forceable;
  }

  /** Each reason, naming its file. */
  public List<String> reasons() {
    return reasons;
  }

  /** Whether {@code --force} would override every reason (the source only looks live). */
  public boolean forceable() {
    return forceable;
  }
}
