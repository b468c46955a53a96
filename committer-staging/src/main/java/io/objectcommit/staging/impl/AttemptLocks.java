package io.objectcommit.staging.impl;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Liveness of local attempt directories. A live attempt holds an exclusive OS file lock on
 * {@code <attemptDir>.lock} (beside its directory, so that task commit never uploads it); the operating system
 * releases the lock when the attempt's JVM exits, however it exits. An attempt directory is provably dead when its
 * lock file exists and another process can take its lock. Where locks are not supported (some network file
 * systems) nothing is provably dead.
 */
final class AttemptLocks {

  private static final Logger LOG = LoggerFactory.getLogger(AttemptLocks.class);

  /** Suffix of an attempt directory's lock file: {@value}. */
  static final String SUFFIX = ".lock";

  /**
   * Locks held by this JVM, by attempt directory. JVM-wide on purpose: an OS file lock belongs to the process (a
   * second lock of the same file by the same JVM fails with {@link OverlappingFileLockException}), and the
   * committer instances of one executor (one per task attempt) must see which attempt directories this JVM holds.
   */
  private static final Map<File, FileLock> HELD = new ConcurrentHashMap<>();

  private AttemptLocks() {
  }

  static File lockFile(File attemptDir) {
    return new File(attemptDir.getParentFile(), attemptDir.getName() + SUFFIX);
  }

  /** Takes (or keeps) this JVM's lock of an attempt directory; logs and goes on when locks are unsupported. */
  static void lock(File attemptDir) {
    HELD.computeIfAbsent(attemptDir.getAbsoluteFile(), d -> {
      try {
        FileChannel ch = FileChannel.open(lockFile(d).toPath(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock l = ch.tryLock();
        if (l == null) {
          ch.close();
          LOG.warn("{} is locked by another process: two attempts with the same id on one node?", lockFile(d));
        }
        return l;
      } catch (IOException | OverlappingFileLockException e) {
        LOG.debug("cannot lock {} (its directory will never count as dead): {}", lockFile(d), e.toString());
        return null;
      }
    });
  }

  /** Releases this JVM's lock of an attempt directory and deletes the lock file. */
  static void release(File attemptDir) {
    FileLock l = HELD.remove(attemptDir.getAbsoluteFile());
    File f = lockFile(attemptDir);
    if (!f.delete() && f.exists()) {
      LOG.debug("lock file {} not deleted", f);
    }
    if (l != null) {
      try {
        l.channel().close();
      } catch (IOException e) {
        LOG.debug("closing lock {}: {}", f, e.toString());
      }
    }
  }

  /**
   * If the attempt directory is provably dead (its lock file exists, this JVM does not hold it, and its lock can be
   * taken), runs {@code removal} while holding the lock, then deletes the lock file. False otherwise (live, no
   * lock file, or locks unsupported).
   */
  static boolean ifDead(File attemptDir, Runnable removal) {
    File f = lockFile(attemptDir);
    if (!f.isFile() || HELD.containsKey(attemptDir.getAbsoluteFile())) {
      return false;
    }
    try (FileChannel ch = FileChannel.open(f.toPath(), StandardOpenOption.WRITE)) {
      FileLock l = ch.tryLock();
      if (l == null) {
        return false;
      }
      try {
        removal.run();
        if (!f.delete() && f.exists()) {
          LOG.debug("lock file {} not deleted", f);
        }
        return true;
      } finally {
        if (l.isValid()) {
          l.release();
        }
      }
    } catch (IOException | OverlappingFileLockException e) {
      LOG.debug("cannot test the lock {}: {}", f, e.toString());
      return false;
    }
  }

  /** True when the lock file of {@code attemptDir} is held (by this JVM or another process), or untestable. */
  static boolean isLive(File attemptDir) {
    File f = lockFile(attemptDir);
    if (HELD.containsKey(attemptDir.getAbsoluteFile())) {
      return true;
    }
    if (!f.isFile()) {
      return false;
    }
    try (FileChannel ch = FileChannel.open(f.toPath(), StandardOpenOption.WRITE)) {
      FileLock l = ch.tryLock();
      if (l == null) {
        return true;
      }
      l.release();
      return false;
    } catch (IOException | OverlappingFileLockException e) {
      return true;
    }
  }
}
