package io.objectcommit.checkpoint.impl;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes "no such file" exact on NFS. A node's NFS client remembers that a name did not exist (negative lookup
 * cache, {@code lookupcache=all}, the default) and trusts that for as long as the parent directory's cached
 * attributes are fresh (up to {@code acdirmax}, 60 s by default), so a file another node created meanwhile is
 * reported missing. Opening a directory revalidates its attributes with the server (close-to-open applies to
 * directories too), and a directory found changed drops its negative entries. So before the backend answers
 * "missing", it opens the parent directory (and, if that is missing too, its parents, up to the root) and asks
 * again: one extra round trip, only for names that are missing. With {@code lookupcache=positive} or
 * {@code none} the second answer is always the first.
 */
final class NameRevalidation {

  private static final Logger LOG = LoggerFactory.getLogger(NameRevalidation.class);

  /** An operation that may report a name missing with {@link NoSuchFileException}. */
  @FunctionalInterface
  interface IoCall<T> {
    T call() throws IOException;
  }

  private final Path root;
  private final AtomicLong revalidations = new AtomicLong();

  NameRevalidation(Path root) {
    this.root = root;
  }

  /** Runs {@code call}; if it reports {@code f} missing, revalidates {@code f}'s parents and runs it once more. */
  <T> T onMiss(Path f, IoCall<T> call) throws IOException {
    try {
      return call.call();
    } catch (NoSuchFileException first) {
      revalidateParents(f);
      T found = call.call();
      LOG.debug("{} was reported missing by this node's NFS client, and found after revalidating its directory", f);
      return found;
    }
  }

  /** Whether {@code f} exists (not following a final symbolic link), revalidated when it seems not to. */
  boolean exists(Path f) {
    if (Files.exists(f, LinkOption.NOFOLLOW_LINKS)) {
      return true;
    }
    revalidateParents(f);
    return Files.exists(f, LinkOption.NOFOLLOW_LINKS);
  }

  /** Whether {@code dir} is a directory, revalidated when it seems not to exist. */
  boolean isDirectory(Path dir) {
    if (Files.isDirectory(dir)) {
      return true;
    }
    revalidateParents(dir);
    return Files.isDirectory(dir);
  }

  /** Opens the parent of {@code f} (and, where missing, its own parents first), up to the root. */
  void revalidateParents(Path f) {
    Path dir = f.getParent();
    if (dir == null || !dir.startsWith(root)) {
      return;
    }
    revalidations.incrementAndGet();
    if (!open(dir) && !dir.equals(root)) {
      revalidateParents(dir);
      open(dir);
    }
  }

  private static boolean open(Path dir) {
    try (DirectoryStream<Path> ignored = Files.newDirectoryStream(dir)) {
      return true;
    } catch (NoSuchFileException | NotDirectoryException missing) {
      return false;
    } catch (IOException e) {
      LOG.debug("revalidating {} by opening it failed: {}", dir, e.toString());
      return false;
    }
  }

  /** How many times a missing name led to revalidating its parents (for tests and statistics). */
  long count() {
    return revalidations.get();
  }
}
