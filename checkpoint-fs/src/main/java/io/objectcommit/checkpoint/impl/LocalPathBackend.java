package io.objectcommit.checkpoint.impl;

import io.objectcommit.checkpoint.CheckpointConstants;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;

/**
 * The local-path backend for EFS/NFS mounts: {@code ckpt://<authority>/p} is {@code <root>/p}. A new file is written
 * to a hidden temporary file in its directory (created with CREATE_NEW), fsynced, and published atomically: by
 * {@code link(2)} when it must not overwrite (fails if the name exists, atomic on NFS too), by {@code rename(2)}
 * when it may; then the directory is fsynced. A crash never leaves a partial file under the final name. No
 * {@code .crc} side files.
 */
public final class LocalPathBackend implements Backend {

  static final String TMP_SUFFIX = ".ckpt-tmp";

  private final String authority;
  private final java.nio.file.Path root;
  private final boolean fsync;
  private final String owner;
  private final NameRevalidation names;

  LocalPathBackend(String authority, java.nio.file.Path root, boolean fsync, String owner) {
    this.authority = authority;
    this.root = root;
    this.fsync = fsync;
    this.owner = owner;
    this.names = new NameRevalidation(root);
  }

  /** Opens the backend of an authority after checking its root: see {@link LocalRootCheck}. */
  public static LocalPathBackend open(CheckpointOptions options, String owner) throws IOException {
    java.nio.file.Path real = LocalRootCheck.check(options);
    return new LocalPathBackend(options.authority(), real, options.localFsync(), owner);
  }

  /** The file of a logical path under the root. */
  public java.nio.file.Path local(Path p) {
    String rel = p.toUri().getPath();
    while (rel.startsWith("/")) {
      rel = rel.substring(1);
    }
    return rel.isEmpty() ? root : root.resolve(rel);
  }

  private FileStatus status(Path path, java.nio.file.Path f) throws IOException {
    BasicFileAttributes a;
    try {
      a = names.onMiss(f, () -> Files.readAttributes(f, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
    } catch (NoSuchFileException e) {
      throw notFound(path, e);
    } catch (FileSystemException e) {
      if (fileAmongParents(f) != null) {
        throw notFound(path, e); // a parent is a file
      }
      throw e;
    }
    return new FileStatus(a.isDirectory() ? 0 : a.size(), a.isDirectory(), 1, CheckpointConstants.BLOCK_SIZE,
        a.lastModifiedTime().toMillis(), a.lastAccessTime().toMillis(), null, owner, owner, path);
  }

  /**
   * The nearest parent of {@code f} that exists and is not a directory, or null. Tells ENOTDIR ("a component of
   * the path is a file") from other failures by looking at the parents, not at the error's text (which the JDK
   * takes from the C library, in the system's language).
   */
  static java.nio.file.Path fileAmongParents(java.nio.file.Path f) {
    for (java.nio.file.Path p = f.getParent(); p != null; p = p.getParent()) {
      BasicFileAttributes a;
      try {
        a = Files.readAttributes(p, BasicFileAttributes.class);
      } catch (IOException missingOrBelowAFile) {
        continue; // look further up
      }
      return a.isDirectory() ? null : p;
    }
    return null;
  }

  private static ParentNotDirectoryException parentNotDirectory(Path path, FileSystemException e) {
    ParentNotDirectoryException p = new ParentNotDirectoryException(path + ": a parent is a file (" + e.getFile()
        + ")");
    p.initCause(e);
    return p;
  }

  private static FileNotFoundException notFound(Path path, Exception cause) {
    FileNotFoundException e = new FileNotFoundException(path + ": no such file or directory");
    e.initCause(cause);
    return e;
  }

  @Override
  public FileStatus getFileStatus(Path path) throws IOException {
    return status(path, local(path));
  }

  @Override
  public FileStatus[] listStatus(Path path) throws IOException {
    java.nio.file.Path f = local(path);
    FileStatus st = status(path, f);
    if (!st.isDirectory()) {
      return new FileStatus[] {st};
    }
    List<FileStatus> out = new ArrayList<>();
    try (Stream<java.nio.file.Path> s = Files.list(f)) {
      for (java.nio.file.Path c : s.sorted().collect(Collectors.toList())) {
        String name = c.getFileName().toString();
        if (name.startsWith(".") && name.endsWith(TMP_SUFFIX)) {
          continue; // a file being written
        }
        try {
          out.add(status(new Path(path, name), c));
        } catch (FileNotFoundException gone) {
          // deleted while listing: not part of the answer
        }
      }
    }
    return out.toArray(new FileStatus[0]);
  }

  @Override
  public boolean mkdirs(Path path) throws IOException {
    java.nio.file.Path f = local(path);
    try {
      Files.createDirectories(f);
      return true;
    } catch (java.nio.file.FileAlreadyExistsException e) {
      throw parentNotDirectory(path, e);
    } catch (FileSystemException e) {
      if (fileAmongParents(f) != null) {
        throw parentNotDirectory(path, e);
      }
      throw e;
    }
  }

  @Override
  public FSDataOutputStream create(Path path, boolean overwrite, boolean createParent) throws IOException {
    java.nio.file.Path f = local(path);
    if (f.equals(root)) {
      throw new FileAlreadyExistsException(path + ": the root is a directory");
    }
    java.nio.file.Path dir = f.getParent();
    if (createParent) {
      mkdirs(path.getParent());
    } else if (!names.isDirectory(dir)) {
      if (Files.exists(dir)) {
        throw new ParentNotDirectoryException(path.getParent() + " is a file");
      }
      throw new FileNotFoundException(path.getParent() + ": parent directory does not exist");
    }
    if (Files.isDirectory(f)) {
      throw new FileAlreadyExistsException(path + " is a directory");
    }
    if (!overwrite && Files.exists(f, LinkOption.NOFOLLOW_LINKS)) {
      throw new FileAlreadyExistsException(path + " already exists");
    }
    java.nio.file.Path tmp = dir.resolve("." + f.getFileName() + "." + UUID.randomUUID() + TMP_SUFFIX);
    FileChannel ch;
    try {
      ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    } catch (AccessDeniedException e) {
      throw accessDenied(e, dir);
    } catch (FileSystemException e) {
      if (fileAmongParents(tmp) != null) {
        throw parentNotDirectory(path, e);
      }
      throw e;
    }
    return AtomicOutputStream.open(path, new LocalTempFile(tmp, ch, fsync),
        new LocalPublication(path, f, overwrite, fsync));
  }

  static void syncDirectory(java.nio.file.Path dir) throws IOException {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    }
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    java.nio.file.Path f = local(path);
    if (Files.isDirectory(f)) {
      throw new FileNotFoundException(path + " is a directory");
    }
    try {
      return new FSDataInputStream(names.onMiss(f, () -> new LocalSeekableStream(f, path.toString())));
    } catch (NoSuchFileException e) {
      throw notFound(path, e);
    }
  }

  @Override
  public boolean delete(Path path, boolean recursive) throws IOException {
    java.nio.file.Path f = local(path);
    if (!names.exists(f)) {
      return false;
    }
    if (Files.isDirectory(f, LinkOption.NOFOLLOW_LINKS)) {
      if (!recursive) {
        try (Stream<java.nio.file.Path> s = Files.list(f)) {
          if (s.findAny().isPresent()) {
            throw new PathIsNotEmptyDirectoryException(path.toString());
          }
        }
      }
      if (f.equals(root)) {
        try (Stream<java.nio.file.Path> s = Files.list(f)) {
          for (java.nio.file.Path c : s.collect(Collectors.toList())) {
            deleteTree(c);
          }
        }
        return true;
      }
      deleteTree(f);
    } else {
      Files.delete(f);
    }
    if (fsync) {
      syncDirectory(f.getParent());
    }
    return true;
  }

  private static void deleteTree(java.nio.file.Path f) throws IOException {
    try (Stream<java.nio.file.Path> s = Files.walk(f)) {
      for (java.nio.file.Path p : s.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
        Files.deleteIfExists(p);
      }
    }
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    java.nio.file.Path s = local(src);
    java.nio.file.Path d = local(dst);
    if (s.equals(root) || !names.exists(s)) {
      return false;
    }
    boolean srcIsDir = Files.isDirectory(s, LinkOption.NOFOLLOW_LINKS);
    if (s.equals(d)) {
      return !srcIsDir;
    }
    if (srcIsDir && d.startsWith(s)) {
      return false;
    }
    if (Files.isDirectory(d)) {
      d = d.resolve(s.getFileName());
    }
    if (Files.exists(d, LinkOption.NOFOLLOW_LINKS) || d.getParent() == null || !Files.isDirectory(d.getParent())
        || !isUnderRoot(d)) {
      return false;
    }
    try {
      if (srcIsDir) {
        Files.move(s, d, StandardCopyOption.ATOMIC_MOVE);
      } else {
        Files.createLink(d, s); // never replaces a file that appeared meanwhile
        Files.delete(s);
      }
    } catch (java.nio.file.FileAlreadyExistsException | DirectoryNotEmptyException | NotDirectoryException e) {
      return false;
    } catch (FileSystemException e) {
      if (fileAmongParents(d) != null) {
        return false;
      }
      throw e;
    }
    if (fsync) {
      syncDirectory(d.getParent());
      syncDirectory(s.getParent());
    }
    return true;
  }

  private boolean isUnderRoot(java.nio.file.Path p) {
    return p.normalize().startsWith(root);
  }

  /**
   * Deletes temporary files of writers that died, and staging directories of imports never finished (a directory
   * named like a temporary file: {@link LocalCheckpointAdoption}), older than {@code minAgeMs}; returns their paths.
   */
  public List<String> removeStaleTemporaryFiles(long minAgeMs, boolean dryRun, PrintStream out)
      throws IOException {
    long cutoff = System.currentTimeMillis() - minAgeMs;
    List<String> stale = new ArrayList<>();
    try (Stream<java.nio.file.Path> s = Files.walk(root)) {
      for (java.nio.file.Path p : s.collect(Collectors.toList())) {
        String name = p.getFileName().toString();
        if (name.startsWith(".") && name.endsWith(TMP_SUFFIX) && Files.exists(p, LinkOption.NOFOLLOW_LINKS)
            && Files.getLastModifiedTime(p).toMillis() < cutoff) {
          stale.add(p.toString());
          out.println((dryRun ? "would delete " : "delete ") + p);
          if (!dryRun) {
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
              deleteTree(p);
            } else {
              Files.deleteIfExists(p);
            }
          }
        }
      }
    }
    return stale;
  }

  @Override
  public String describe() {
    return "local-path backend ckpt://" + authority + "/ -> " + root;
  }

  @Override
  public void close() {
  }

  /** Whether writes are fsynced (files and their directories). */
  boolean fsync() {
    return fsync;
  }

  /** For tests and messages. */
  public java.nio.file.Path root() {
    return root;
  }

  /** How many missing names were asked again after revalidating their parent directories. */
  public long nameRevalidations() {
    return names.count();
  }

  static IOException accessDenied(AccessDeniedException e, java.nio.file.Path where) {
    return LocalRootCheck.describeAccessDenied(e, where);
  }
}
