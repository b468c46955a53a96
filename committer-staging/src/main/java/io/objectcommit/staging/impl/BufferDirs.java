package io.objectcommit.staging.impl;

import io.objectcommit.staging.NoLocalSpaceException;
import io.objectcommit.staging.StagingConstants;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local directories tasks write into before task commit uploads their files. A task attempt gets a directory
 * on one of the configured disks, starting from one chosen by its task index (so that tasks spread over the disks)
 * and skipping disks with less than the minimum free space. When no disk has room the error names every directory
 * and its free space.
 *
 * <p>Each attempt directory {@code <disk>/<jobId>/<attemptId>} is held by a lock file beside it
 * ({@link AttemptLocks}): while the attempt's JVM lives, the lock is held; when the JVM dies the operating system
 * releases it. Before creating an attempt's directory, what is provably dead is removed ({@link LocalLeftovers}).
 */
public final class BufferDirs {

  private static final Logger LOG = LoggerFactory.getLogger(BufferDirs.class);

  private final List<File> dirs;
  private final long minFree;
  private final ToLongFunction<File> freeSpace;
  private final LocalLeftovers leftovers;

  public BufferDirs(List<File> dirs, long minFree) {
    this(dirs, minFree, StagingConstants.BUFFER_MAX_AGE_DEFAULT_MS);
  }

  /** @param maxAgeMs job directories older than this without a live attempt are removed at task start */
  public BufferDirs(List<File> dirs, long minFree, long maxAgeMs) {
    this(dirs, minFree, BufferDirs::usable, maxAgeMs);
  }

  /** For tests: {@code freeSpace} says how much room a directory has. */
  public BufferDirs(List<File> dirs, long minFree, ToLongFunction<File> freeSpace) {
    this(dirs, minFree, freeSpace, StagingConstants.BUFFER_MAX_AGE_DEFAULT_MS);
  }

  private BufferDirs(List<File> dirs, long minFree, ToLongFunction<File> freeSpace, long maxAgeMs) {
    if (dirs.isEmpty()) {
      throw new IllegalArgumentException("no buffer directories");
    }
    this.dirs = List.copyOf(dirs);
    this.minFree = minFree;
    this.freeSpace = freeSpace;
    this.leftovers = new LocalLeftovers(this.dirs, maxAgeMs, System::currentTimeMillis);
  }

  private static long usable(File dir) {
    File d = dir;
    while (d != null && !d.exists()) {
      d = d.getParentFile();
    }
    return d == null ? 0 : d.getUsableSpace();
  }

  /**
   * Creates (empty) and locks the directory of one task attempt: {@code <disk>/<jobId>/<attemptId>}, after
   * removing the local leftovers of dead attempts ({@link LocalLeftovers}).
   *
   * @throws NoLocalSpaceException naming every buffer directory and its free space when none has room or can be
   *     created
   */
  public File createAttemptDir(String jobId, String attemptId, int taskIndex) throws IOException {
    try {
      leftovers.removeBefore(jobId, attemptId);
    } catch (IOException | RuntimeException e) {
      LOG.warn("Removing the local leftovers of dead task attempts from {} failed (they stay): {}", dirs,
          e.toString());
      LOG.debug("local leftovers", e);
    }
    List<String> problems = new ArrayList<>();
    int n = dirs.size();
    for (int i = 0; i < n; i++) {
      File base = dirs.get(Math.floorMod(taskIndex + i, n));
      long free = freeSpace.applyAsLong(base);
      if (free < minFree) {
        problems.add(base + " (" + free / (1024 * 1024) + " MiB free)");
        continue;
      }
      File dir = new File(new File(base, jobId), attemptId);
      File jobDir = dir.getParentFile();
      if (!jobDir.mkdirs() && !jobDir.isDirectory()) {
        problems.add(base + " (cannot create " + jobDir + ")");
        continue;
      }
      AttemptLocks.lock(dir);
      if (dir.exists()) {
        deleteRecursively(dir);
      }
      if (dir.mkdirs() || dir.isDirectory()) {
        return dir;
      }
      AttemptLocks.release(dir);
      problems.add(base + " (cannot create " + dir + ")");
    }
    throw new NoLocalSpaceException(dirs, "No local buffer directory for task attempt " + attemptId + " has "
        + minFree / (1024 * 1024) + " MiB free (" + StagingConstants.BUFFER_MIN_FREE + "): "
        + String.join(", ", problems) + ". Free space there or add disks to " + StagingConstants.BUFFER_DIRS);
  }

  /** Deletes an attempt's directory and releases its lock (task commit and abort). True when it is gone. */
  public static boolean deleteAttemptDir(File dir) {
    boolean gone = deleteRecursively(dir);
    AttemptLocks.release(dir);
    // The job's directory goes with its last attempt (delete() removes an empty directory only). An attempt
    // starting meanwhile re-creates it; at worst that attempt runs without its lock, which only means its files
    // are never judged dead by the leftovers rule.
    File jobDir = dir.getParentFile();
    if (gone && jobDir != null && jobDir.delete()) {
      LOG.debug("Removed the empty job directory {}", jobDir);
    }
    return gone;
  }

  /** True when the disk of {@code dir} has less than the minimum free space. */
  public boolean isFull(File dir) {
    return minFree > 0 && freeSpace.applyAsLong(dir) < minFree;
  }

  /** The directory and its free space, for a message about a write that failed there. */
  public String describe(File dir) {
    long free = freeSpace.applyAsLong(dir);
    return "local buffer directory " + dir + " (" + free / (1024 * 1024) + " MiB free)"
        + (isFull(dir) ? " is full: free space there or add disks to " + StagingConstants.BUFFER_DIRS : "");
  }

  /** Deletes a directory tree; true when it is gone. */
  public static boolean deleteRecursively(File f) {
    File[] children = f.listFiles();
    if (children != null) {
      for (File c : children) {
        deleteRecursively(c);
      }
    }
    return f.delete() || !f.exists();
  }
}
