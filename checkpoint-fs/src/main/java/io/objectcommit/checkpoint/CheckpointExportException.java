package io.objectcommit.checkpoint;

import java.util.List;

/**
 * {@code objectcommit checkpoint export} refused to write a plain checkpoint: the query looks live (which
 * {@code --force} overrides), the checkpoint lacks a file its query needs to resume, or the target holds objects that
 * are not this checkpoint's files. Nothing was copied; the message names each reason and the file it is about.
 */
public class CheckpointExportException extends CheckpointMoveException {

  private static final long serialVersionUID = 1L;

  public CheckpointExportException(String path, List<String> reasons, boolean forceable, String message) {
    super(path, reasons, forceable, message);
  }
}
