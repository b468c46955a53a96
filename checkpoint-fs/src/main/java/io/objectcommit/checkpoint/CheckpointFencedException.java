package io.objectcommit.checkpoint;

import org.apache.hadoop.fs.PathIOException;

/**
 * A write to a checkpoint location refused because a newer owner took the location over ({@link
 * CheckpointFencing#takeOwnership}) after this process learnt its epoch: this process is a zombie (a driver that
 * lost its lease but still runs, or one of its executors). Nothing of the refused operation became visible; a data
 * object it uploaded first is left unreferenced, for {@code objectcommit checkpoint gc}. Retrying cannot succeed:
 * the query must stop. Carries the location, the operation, and both owners with their epochs.
 */
public class CheckpointFencedException extends PathIOException {

  private static final long serialVersionUID = 1L;

  private final String location;
  private final String operation;
  private final String ownerId;
  private final long epoch;
  private final String newerOwnerId;
  private final long newerEpoch;

  /**
   * @param path the directory whose manifest refused the write
   * @param location the checkpoint location (its logical path)
   * @param operation what was refused ("create /q/offsets/5")
   */
  public CheckpointFencedException(String path, String location, String operation, String ownerId, long epoch,
      String newerOwnerId, long newerEpoch) {
    super(path, operation + " refused: checkpoint location " + location + " was taken over by owner '" + newerOwnerId
        + "' (epoch " + newerEpoch + ") after this process started writing as owner '" + ownerId + "' (epoch " + epoch
        + "); nothing of it was written. Another query runs on this checkpoint now: stop this one");
    this.location = location;
    this.operation = operation;
    this.ownerId = ownerId;
    this.epoch = epoch;
    this.newerOwnerId = newerOwnerId;
    this.newerEpoch = newerEpoch;
  }

  /** The checkpoint location taken over. */
  public String location() {
    return location;
  }

  /** The operation refused. */
  public String operation() {
    return operation;
  }

  /** This process's owner id. */
  public String ownerId() {
    return ownerId;
  }

  /** This process's epoch. */
  public long epoch() {
    return epoch;
  }

  /** The owner that took the location over. */
  public String newerOwnerId() {
    return newerOwnerId;
  }

  /** Its epoch, greater than {@link #epoch()}. */
  public long newerEpoch() {
    return newerEpoch;
  }
}
