package io.objectcommit.checkpoint;

import java.util.List;

/**
 * {@code objectcommit checkpoint import} refused to adopt a checkpoint: it looks live (which {@code --force}
 * overrides), it lacks a file its query needs to resume, the listing lags behind the store, or the target exists
 * as something else. Nothing was written; the message names each reason and the file it is about.
 */
public class CheckpointImportException extends CheckpointMoveException {

  private static final long serialVersionUID = 1L;

  public CheckpointImportException(String path, List<String> reasons, boolean forceable, String message) {
    super(path, reasons, forceable, message);
  }
}
