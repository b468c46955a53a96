package io.objectcommit.staging;

import java.io.File;
import java.util.List;
import org.apache.hadoop.util.DiskChecker;

/**
 * No local buffer directory has {@value StagingConstants#BUFFER_MIN_FREE} free (or none can be created) for a new
 * task attempt. Free space in the directories named, or add disks to {@value StagingConstants#BUFFER_DIRS}.
 */
public class NoLocalSpaceException extends DiskChecker.DiskOutOfSpaceException {

  private static final long serialVersionUID = 1L;

  private final transient List<File> dirs;

  /**
   * @param dirs the buffer directories tried
   * @param message what each has (free space, or why it could not be used)
   */
  public NoLocalSpaceException(List<File> dirs, String message) {
    super(message);
    this.dirs = List.copyOf(dirs);
  }

  /** The buffer directories tried. */
  public List<File> dirs() {
    return dirs;
  }
}
