package io.objectcommit.checkpoint;

import java.util.List;
import org.apache.hadoop.fs.PathIOException;

/**
 * {@code objectcommit checkpoint export} refused to write a plain checkpoint: the query looks live (which
 * {@code --force} overrides), the checkpoint lacks a file its query needs to resume, or the target holds objects that
 * are not this checkpoint's files. Nothing was copied; the message names each reason and the file it is about.
 */
public class CheckpointExportException extends PathIOException {

  private static final long serialVersionUID = 1L;
  private final List<String> reasons;
  private final boolean forceable;

  public CheckpointExportException(String path, List<String> reasons, boolean forceable, String message) {
    super(path, message);
    this.reasons = List.copyOf(reasons);
    this.forceable = forceable;
  }

  /** Each reason, naming its file. */
  public List<String> reasons() {
    return reasons;
  }

  /** Whether {@code --force} would override every reason (the query only looks live). */
  public boolean forceable() {
    return forceable;
  }
}
