package io.objectcommit.direct;

import org.apache.hadoop.fs.PathIOException;

/**
 * A task attempt may not write or commit any more: another attempt of the same task has committed, or this
 * attempt was already committed, superseded or aborted. The engine retries the task with a new attempt or keeps
 * the other attempt's output; nothing to do unless it repeats (then look for a second job writing with the same
 * job id).
 */
public class SupersededAttemptException extends PathIOException {

  private static final long serialVersionUID = 1L;

  private final String attemptId;

  /**
   * @param path the task record's path
   * @param attemptId this attempt
   * @param why what happened, for example "attempt X already committed task m-000003 of job J"
   */
  public SupersededAttemptException(String path, String attemptId, String why) {
    super(path, "Task attempt " + attemptId + " is superseded: " + why + "; it writes and commits nothing more");
    this.attemptId = attemptId;
  }

  public String attemptId() {
    return attemptId;
  }
}
