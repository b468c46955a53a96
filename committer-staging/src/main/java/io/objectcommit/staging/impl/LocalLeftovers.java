package io.objectcommit.staging.impl;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes, when a task attempt starts, the local files that attempts whose JVM died left in the buffer
 * directories, and only what is provably dead (executors on one node share the directories):
 * <ol>
 *   <li>directories of other attempts of the same task of the same job whose lock ({@link AttemptLocks}) no process
 *       holds: their executor died (an attempt that ends normally deletes its directory);</li>
 *   <li>directories of other jobs in which nothing changed for longer than the bound
 *       ({@code fs.objectcommit.staging.buffer.max-age}) and no attempt holds a lock: jobs whose executors died
 *       and whose tasks never ran here again. At most once an hour per disk and JVM.</li>
 * </ol>
 * Whatever else is left (a dead attempt of a job that is still younger than the bound and whose task did not run
 * on this node again) stays until then; see the failure table in docs/committer-staging.md.
 */
final class LocalLeftovers {

  private static final Logger LOG = LoggerFactory.getLogger(LocalLeftovers.class);

  /** Scans for old job directories at most this often per disk and JVM: one hour. */
  static final long SCAN_INTERVAL_MS = 3_600_000L;

  /**
   * When each disk was last scanned for old job directories. JVM-wide on purpose: it bounds the scans of a disk to
   * one an hour per executor, and each task attempt has a committer instance of its own.
   */
  private static final Map<File, Long> LAST_SCAN = new ConcurrentHashMap<>();

  private final List<File> dirs;
  private final long maxAgeMs;
  private final LongSupplier clock;

  LocalLeftovers(List<File> dirs, long maxAgeMs, LongSupplier clock) {
    this.dirs = dirs;
    this.maxAgeMs = maxAgeMs;
    this.clock = clock;
  }

  /**
   * Removes the dead leftovers before attempt {@code attemptId} of job {@code jobId} starts.
   *
   * @return the number of directories removed
   */
  int removeBefore(String jobId, String attemptId) throws IOException {
    int removed = 0;
    TaskID task = taskOf(attemptId);
    for (File disk : dirs) {
      if (task != null) {
        removed += removeDeadAttempts(new File(disk, jobId), attemptId, task);
      }
      removed += removeOldJobs(disk, jobId);
    }
    return removed;
  }

  private static TaskID taskOf(String attemptId) {
    try {
      return TaskAttemptID.forName(attemptId).getTaskID();
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private int removeDeadAttempts(File jobDir, String attemptId, TaskID task) {
    File[] children = jobDir.listFiles(File::isDirectory);
    if (children == null) {
      return 0;
    }
    int removed = 0;
    for (File other : children) {
      if (other.getName().equals(attemptId) || !task.equals(taskOf(other.getName()))) {
        continue;
      }
      if (AttemptLocks.ifDead(other, () -> BufferDirs.deleteRecursively(other))) {
        LOG.info("Removed the local files of dead attempt {} (attempt {} of the same task starts): {}",
            other.getName(), attemptId, other);
        removed++;
      }
    }
    return removed;
  }

  private int removeOldJobs(File disk, String currentJob) {
    long now = clock.getAsLong();
    Long last = LAST_SCAN.get(disk.getAbsoluteFile());
    if (last != null && now - last < SCAN_INTERVAL_MS && now >= last) {
      return 0;
    }
    LAST_SCAN.put(disk.getAbsoluteFile(), now);
    File[] jobs = disk.listFiles(File::isDirectory);
    if (jobs == null) {
      return 0;
    }
    int removed = 0;
    for (File job : jobs) {
      if (job.getName().equals(currentJob) || now - newest(job) <= maxAgeMs || hasLiveAttempt(job)) {
        continue;
      }
      BufferDirs.deleteRecursively(job);
      LOG.info("Removed local job directory {}: unchanged for over {} h and no live attempt", job,
          maxAgeMs / 3_600_000L);
      removed++;
    }
    return removed;
  }

  private static boolean hasLiveAttempt(File jobDir) {
    File[] children = jobDir.listFiles(File::isDirectory);
    if (children == null) {
      return false;
    }
    for (File attempt : children) {
      if (AttemptLocks.isLive(attempt)) {
        return true;
      }
    }
    return false;
  }

  /** The newest modification time in a tree. */
  static long newest(File f) {
    long t = f.lastModified();
    File[] children = f.listFiles();
    if (children != null) {
      for (File c : children) {
        t = Math.max(t, newest(c));
      }
    }
    return t;
  }

  /** For tests: forget when disks were last scanned. */
  static void resetScans() {
    LAST_SCAN.clear();
  }
}
