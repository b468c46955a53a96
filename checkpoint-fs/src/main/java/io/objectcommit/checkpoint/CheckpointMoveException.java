package io.objectcommit.checkpoint;

import java.util.List;
import org.apache.hadoop.fs.PathIOException;

/**
 * A checkpoint import or export refused: nothing was written. Carries each reason (naming its file) and whether
 * {@code --force} would override all of them (the checkpoint only looks live).
 */
public class CheckpointMoveException extends PathIOException {

  private static final long serialVersionUID = 1L;
  private final List<String> reasons;
  private final boolean forceable;

  protected CheckpointMoveException(String path, List<String> reasons, boolean forceable, String message) {
    super(path, message);
    this.reasons = List.copyOf(reasons);
    this.forceable = forceable;
  }

  /** Each reason, naming its file. */
  public List<String> reasons() {
    return reasons;
  }

  /** Whether {@code --force} would override every reason (the checkpoint only looks live). */
  public boolean forceable() {
    return forceable;
  }
}
