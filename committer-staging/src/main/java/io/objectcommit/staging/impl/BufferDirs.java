package io.objectcommit.staging.impl;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The local directories tasks write into before task commit uploads their files. A task attempt gets a directory
 * on one of the configured disks, starting from one chosen by its task index (so that tasks spread over the disks)
 * and skipping disks with less than the minimum free space. When no disk has room the error names every directory
 * and its free space.
 */
public final class BufferDirs {

  private final List<File> dirs;
  private final long minFree;
  private final ToLongFunction<File> freeSpace;

  public BufferDirs(List<File> dirs, long minFree) {
    this(dirs, minFree, BufferDirs::usable);
  }

  /** For tests: {@code freeSpace} says how much room a directory has. */
  public BufferDirs(List<File> dirs, long minFree, ToLongFunction<File> freeSpace) {
    if (dirs.isEmpty()) {
      throw new IllegalArgumentException("no buffer directories");
    }
    this.dirs = List.copyOf(dirs);
    this.minFree = minFree;
    this.freeSpace = freeSpace;
  }

  private static long usable(File dir) {
    File d = dir;
    while (d != null && !d.exists()) {
      d = d.getParentFile();
    }
    return d == null ? 0 : d.getUsableSpace();
  }

  /**
   * Creates (empty) the directory of one task attempt: {@code <disk>/<jobId>/<attemptId>}.
   *
   * @throws IOException naming every buffer directory and its free space when none has room or can be created
   */
  public File createAttemptDir(String jobId, String attemptId, int taskIndex) throws IOException {
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
      if (dir.exists()) {
        deleteRecursively(dir);
      }
      if (dir.mkdirs() || dir.isDirectory()) {
        return dir;
      }
      problems.add(base + " (cannot create " + dir + ")");
    }
    throw new IOException("No local buffer directory for task attempt " + attemptId + " has " + minFree / (1024 * 1024)
        + " MiB free (fs.objectcommit.staging.buffer.min-free): " + String.join(", ", problems)
        + ". Free space there or add disks to fs.objectcommit.staging.buffer.dirs");
  }

  /**
   * A clear message for a write that failed in {@code dir}: names the directory and says whether its disk is full.
   */
  public String describeFailure(File dir) {
    long free = freeSpace.applyAsLong(dir);
    return free < minFree ? "local buffer directory " + dir + " is full (" + free / (1024 * 1024) + " MiB free): free"
        + " space there or add disks to fs.objectcommit.staging.buffer.dirs"
        : "local buffer directory " + dir + " (" + free / (1024 * 1024) + " MiB free)";
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
