package io.objectcommit.direct;

import java.util.List;
import org.apache.hadoop.fs.PathIOException;

/**
 * A task attempt cannot commit: another attempt of the same task, aborting, deleted (or is deleting) keys this
 * attempt also wrote, since both attempts of a task name their files alike. Committing would declare files the
 * store may no longer hold, so the attempt fails instead and the engine runs the task again; the new attempt's
 * uploads come after the other attempt's abort has finished. Carries the task record, both attempts and the keys.
 */
public class OverlappingAbortException extends PathIOException {

  private static final long serialVersionUID = 1L;

  private final String attemptId;
  private final String abortingAttemptId;
  private final List<String> keys;
  private final boolean pending;

  /**
   * @param path the task record's path
   * @param attemptId the attempt that cannot commit
   * @param abortingAttemptId the attempt whose abort deletes the keys
   * @param keys the keys both wrote that the abort deleted or may still delete
   * @param pending whether that abort was still deleting (else: it deleted these keys)
   */
  public OverlappingAbortException(String path, String attemptId, String abortingAttemptId, List<String> keys,
      boolean pending) {
    super(path, "Task attempt " + attemptId + " cannot commit: attempt " + abortingAttemptId + " of the same task "
        + (pending ? "is still deleting, in its abort, " : "deleted, in its abort, ") + keys.size()
        + " file(s) this attempt also wrote (" + (keys.size() <= 5 ? keys : keys.subList(0, 5) + " ...")
        + "); the task must run again");
    this.attemptId = attemptId;
    this.abortingAttemptId = abortingAttemptId;
    this.keys = List.copyOf(keys);
    this.pending = pending;
  }

  /** Whether the other attempt's abort was still deleting (else it had deleted the keys). */
  public boolean pending() {
    return pending;
  }

  public String attemptId() {
    return attemptId;
  }

  public String abortingAttemptId() {
    return abortingAttemptId;
  }

  public List<String> keys() {
    return keys;
  }
}
