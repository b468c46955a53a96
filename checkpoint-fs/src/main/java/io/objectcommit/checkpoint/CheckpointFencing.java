package io.objectcommit.checkpoint;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Storage-level fencing of checkpoint writers (docs/checkpoint-format.md#fencing). A query (re)started on a
 * checkpoint location {@linkplain #takeOwnership takes ownership} of it: the location's epoch is raised in the store
 * and every manifest under it is stamped, so that each later write by an older owner (a zombie driver, or its
 * executors) fails with {@link CheckpointFencedException} before anything of it becomes visible. Processes that
 * write for the owner learn its epoch with {@link #writeAs}. A FileSystem instance that was never given an epoch
 * for a location writes there as without fencing.
 *
 * <p>The epoch is held JVM-wide, as the process's: every FileSystem instance of the same bucket and namespace prefix
 * writes with it, whichever instance took or was given it. S3 backend only: the local-path backend throws
 * {@link UnsupportedOperationException} (the reason is in the document above).
 */
public final class CheckpointFencing {

  private CheckpointFencing() {
  }

  /**
   * Takes ownership of a checkpoint location (made if missing) for the writes of {@code fs}: one PUT per directory
   * under it, and one GET per directory {@code fs} has not read yet.
   *
   * @param location the checkpoint's root directory
   * @param ownerId who takes it (an application id and query run id, a host and pid): named in a zombie's exception
   * @return the new epoch (1 for a location never owned)
   * @throws CheckpointFencedException if a newer takeover overtook this one while it stamped
   */
  public static long takeOwnership(FileSystem fs, Path location, String ownerId) throws IOException {
    return checkpointFs(fs, location).backend().takeOwnership(fs.makeQualified(location), ownerId);
  }

  /**
   * Makes the writes of {@code fs} under {@code location} those of owner {@code ownerId} at {@code epoch}, as
   * learnt from the process that took ownership (an executor told by its driver). No request.
   */
  public static void writeAs(FileSystem fs, Path location, String ownerId, long epoch) {
    checkpointFs(fs, location).backend().writeAs(fs.makeQualified(location), ownerId, epoch);
  }

  /** The epoch {@code fs} writes {@code location} with; 0 when it was never given one. */
  public static long epoch(FileSystem fs, Path location) {
    return checkpointFs(fs, location).backend().epoch(fs.makeQualified(location));
  }

  private static CheckpointFileSystem checkpointFs(FileSystem fs, Path location) {
    FileSystem f = fs;
    while (f instanceof FilterFileSystem) {
      f = ((FilterFileSystem) f).getRawFileSystem();
    }
    if (!(f instanceof CheckpointFileSystem)) {
      throw new IllegalArgumentException(location + ": fencing needs a " + CheckpointConstants.SCHEME
          + ":// location, not " + fs.getUri());
    }
    return (CheckpointFileSystem) f;
  }
}
