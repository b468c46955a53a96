package io.objectcommit.staging.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Local leftovers of dead attempts are removed at task start; nothing a live attempt holds is touched. */
class LocalLeftoversTest {

  private static final String JOB = "job-1";
  private static final long DAY = 24 * 3_600_000L;

  @TempDir
  File tmp;

  @BeforeEach
  void resetScans() {
    LocalLeftovers.resetScans();
  }

  private static String attempt(int task, int n) {
    return String.format("attempt_202311230406_0001_m_%06d_%d", task, n);
  }

  /** An attempt directory as a JVM that died leaves it: files, and an unlocked lock file. */
  private File deadAttempt(File disk, String job, String attemptId) throws IOException {
    File dir = new File(new File(disk, job), attemptId);
    assertTrue(dir.mkdirs());
    Files.write(new File(dir, "part-00000.parquet").toPath(), new byte[] {1});
    assertTrue(AttemptLocks.lockFile(dir).createNewFile());
    return dir;
  }

  @Test
  void aLaterAttemptOfTheSameTaskRemovesTheDeadOnesOnEveryDisk() throws IOException {
    File d1 = new File(tmp, "d1");
    File d2 = new File(tmp, "d2");
    File dead0 = deadAttempt(d1, JOB, attempt(3, 0));
    File dead1 = deadAttempt(d2, JOB, attempt(3, 1));
    File otherTask = deadAttempt(d1, JOB, attempt(4, 0));
    BufferDirs dirs = new BufferDirs(List.of(d1, d2), 0);
    File mine = dirs.createAttemptDir(JOB, attempt(3, 2), 3);
    assertFalse(dead0.exists());
    assertFalse(AttemptLocks.lockFile(dead0).exists());
    assertFalse(dead1.exists());
    assertTrue(otherTask.exists(), "another task's attempt is left for its own later attempt");
    assertTrue(mine.isDirectory());
    assertTrue(BufferDirs.deleteAttemptDir(mine));
    assertFalse(AttemptLocks.lockFile(mine).exists());
  }

  @Test
  void anAttemptWhoseLockIsHeldIsNeverRemoved() throws IOException {
    File live = deadAttempt(tmp, JOB, attempt(3, 0));
    try (FileChannel ch = FileChannel.open(AttemptLocks.lockFile(live).toPath(), StandardOpenOption.WRITE);
        FileLock held = ch.lock()) {
      new BufferDirs(List.of(tmp), 0).createAttemptDir(JOB, attempt(3, 1), 3);
      assertTrue(new File(live, "part-00000.parquet").exists(), "a live attempt's files stay");
    }
  }

  @Test
  void anAttemptOfThisJvmIsNeverRemoved() throws IOException {
    BufferDirs dirs = new BufferDirs(List.of(tmp), 0);
    File first = dirs.createAttemptDir(JOB, attempt(3, 0), 3);
    dirs.createAttemptDir(JOB, attempt(3, 1), 3);
    assertTrue(first.isDirectory());
  }

  @Test
  void withoutALockFileNothingIsProvablyDead() throws IOException {
    File old = deadAttempt(tmp, JOB, attempt(3, 0));
    assertTrue(AttemptLocks.lockFile(old).delete());
    new BufferDirs(List.of(tmp), 0).createAttemptDir(JOB, attempt(3, 1), 3);
    assertTrue(old.exists());
  }

  @Test
  void jobDirectoriesOlderThanTheBoundWithoutALiveAttemptAreRemoved() throws IOException {
    File oldJob = deadAttempt(tmp, "old-job", attempt(1, 0)).getParentFile();
    File oldLockless = new File(new File(tmp, "lockless-job"), attempt(1, 0));
    assertTrue(oldLockless.mkdirs());
    File oldButLive = deadAttempt(tmp, "old-live-job", attempt(1, 0));
    File young = deadAttempt(tmp, "young-job", attempt(1, 0)).getParentFile();
    long eightDaysAgo = System.currentTimeMillis() - 8 * DAY;
    for (File root : List.of(oldJob, oldLockless.getParentFile(), oldButLive.getParentFile())) {
      age(root, eightDaysAgo);
    }
    try (FileChannel ch = FileChannel.open(AttemptLocks.lockFile(oldButLive).toPath(), StandardOpenOption.WRITE);
        FileLock held = ch.lock()) {
      new BufferDirs(List.of(tmp), 0, 7 * DAY).createAttemptDir(JOB, attempt(0, 0), 0);
    }
    assertFalse(oldJob.exists());
    assertFalse(oldLockless.getParentFile().exists());
    assertTrue(oldButLive.exists(), "a job with a live attempt stays, however old");
    assertTrue(young.exists());
    assertTrue(new File(tmp, JOB).isDirectory());
  }

  @Test
  void oldJobsAreLookedForAtMostOnceAnHour() throws IOException {
    BufferDirs dirs = new BufferDirs(List.of(tmp), 0, 7 * DAY);
    dirs.createAttemptDir(JOB, attempt(0, 0), 0);
    File oldJob = deadAttempt(tmp, "old-job", attempt(1, 0)).getParentFile();
    age(oldJob, System.currentTimeMillis() - 8 * DAY);
    dirs.createAttemptDir(JOB, attempt(1, 0), 1);
    assertTrue(oldJob.exists(), "scanned a moment ago");
    LocalLeftovers.resetScans();
    dirs.createAttemptDir(JOB, attempt(2, 0), 2);
    assertFalse(oldJob.exists());
  }

  private static void age(File f, long time) {
    File[] children = f.listFiles();
    if (children != null) {
      for (File c : children) {
        age(c, time);
      }
    }
    assertTrue(f.setLastModified(time));
  }

  @Test
  void newestLooksAtTheWholeTree() throws IOException {
    File job = deadAttempt(tmp, "j", attempt(0, 0)).getParentFile();
    age(job, 1000_000L);
    File recent = new File(new File(job, attempt(0, 0)), "part-00000.parquet");
    assertTrue(recent.setLastModified(5000_000L));
    assertEquals(5000_000L, LocalLeftovers.newest(job));
  }
}
