package io.objectcommit.checkpoint.impl;

import io.objectcommit.checkpoint.CheckpointImport;
import io.objectcommit.checkpoint.CheckpointImport.Result.Outcome;
import io.objectcommit.checkpoint.CheckpointImportException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adopts a stopped query's checkpoint directory on a local or mounted (EFS/NFS) file system ({@code file:///dir})
 * into the local-path backend without copying data: every file is hard-linked under the target's directory, so the
 * target names the same inodes and the source stays as it was (its query can still be started on it, and a file
 * the resumed query deletes under {@code ckpt://} only loses its second name). When the target's directory is the
 * source itself, nothing is linked: the files are already where the backend names them.
 *
 * <p>The links are made in a hidden staging directory beside the target ({@code .<name>.import-<id>.ckpt-tmp}, the
 * id derived from source and target: a second run after an interruption finds it and links only what is missing),
 * which one {@code rename(2)} then publishes: nothing is visible under the target before the import is whole. A run
 * on a target whose every file is already the source's (same inode) writes nothing. The same layout checks as the
 * S3 path ({@link StreamingCheckpointLayout}); a needed file the directory listing lacks is looked up by name, so
 * that an NFS client's stale directory cache is noticed, not trusted. Hard links need source and target on one
 * file system: across file systems the import is refused (it does not copy).
 */
public final class LocalCheckpointAdoption {

  private static final Logger LOG = LoggerFactory.getLogger(LocalCheckpointAdoption.class);

  private final LocalPathBackend backend;
  private final LongSupplier clock;

  public LocalCheckpointAdoption(LocalPathBackend backend) {
    this(backend, System::currentTimeMillis);
  }

  LocalCheckpointAdoption(LocalPathBackend backend, LongSupplier clock) {
    this.backend = backend;
    this.clock = clock;
  }

  /** A file of the source: its path relative to the source and its attributes. */
  private static final class SourceFile {
    final String rel;
    final java.nio.file.Path path;
    final long size;
    final long mtime;

    SourceFile(String rel, java.nio.file.Path path, BasicFileAttributes a) {
      this.rel = rel;
      this.path = path;
      this.size = a.size();
      this.mtime = a.lastModifiedTime().toMillis();
    }
  }

  /**
   * Imports {@code source} ({@code file:///dir}) into the logical path {@code target} of the backend.
   *
   * @throws CheckpointImportException when the import is refused (nothing written)
   */
  public CheckpointImport.Result run(URI source, Path target, CheckpointImport.Options options, PrintStream out)
      throws IOException {
    java.nio.file.Path src = sourceDir(source);
    String targetPath = target.toUri().getPath();
    java.nio.file.Path dst = backend.local(target).normalize();
    String where = src + " -> ckpt://" + target.toUri().getAuthority() + targetPath;
    if (dst.equals(backend.root())) {
      throw CheckpointAdoption.refused(targetPath, List.of("the target is the namespace's root: import into a"
          + " directory of it"), false);
    }
    boolean inPlace = Files.isDirectory(dst) && dst.toRealPath().equals(src);
    if (!inPlace && (dst.startsWith(src) || src.startsWith(dst))) {
      throw CheckpointAdoption.refused(targetPath, List.of(dst + " and the source " + src + " contain one another:"
          + " import into a location beside the source, or name the source's own directory"), false);
    }

    // 1. What the source holds, and what the query needs against it; a gap is looked up by name.
    List<SourceFile> files = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    long directories = walk(src, files, problems);
    if (!problems.isEmpty()) {
      throw CheckpointAdoption.refused(src.toString(), problems, false);
    }
    if (files.isEmpty()) {
      throw CheckpointAdoption.refused(src.toString(), List.of("no files under " + src), false);
    }
    List<String> rels = new ArrayList<>();
    long bytes = 0;
    SourceFile newest = files.get(0);
    for (SourceFile f : files) {
      rels.add(f.rel);
      bytes += f.size;
      if (f.mtime > newest.mtime) {
        newest = f;
      }
    }
    StreamingCheckpointLayout.Findings f = StreamingCheckpointLayout.check(rels);
    for (Map.Entry<String, String> m : f.missing.entrySet()) {
      if (StreamingCheckpointLayout.isLookup(m.getKey())
          && Files.exists(src.resolve(m.getKey()), LinkOption.NOFOLLOW_LINKS)) {
        problems.add(src.resolve(m.getKey()) + " exists but the directory listing did not show it: the listing lags"
            + " (an NFS client's directory cache); run the import again later");
      } else {
        problems.add(src.resolve(m.getKey()) + " is missing: " + (m.getKey().endsWith("/") ? "" : "it is needed for ")
            + m.getValue());
      }
    }
    List<String> next = new ArrayList<>();
    f.lastOffsets.ifPresent(n -> next.add("offsets/" + (n + 1)));
    f.lastCommitted.ifPresent(n -> next.add("commits/" + (n + 1)));
    for (String n : next) {
      if (Files.exists(src.resolve(n), LinkOption.NOFOLLOW_LINKS)) {
        problems.add(src.resolve(n) + " exists but the listing did not show it: the listing lags, or the query is"
            + " running; run the import again when it is stopped");
      }
    }
    if (!problems.isEmpty()) {
      throw CheckpointAdoption.refused(src.toString(), problems, false);
    }
    List<String> live = new ArrayList<>();
    for (String sign : f.liveSigns) {
      live.add(src + "/: " + sign);
    }
    long ageMs = clock.getAsLong() - newest.mtime;
    if (ageMs < options.idle().toMillis()) {
      live.add(newest.path + " was written " + Math.max(0, ageMs / 1000) + " s ago, less than the idle time ("
          + options.idle().toSeconds() + " s) a stopped query's checkpoint must have");
    }
    if (!live.isEmpty() && !options.force()) {
      throw CheckpointAdoption.refused(src.toString(), live, true);
    }
    for (String w : live) {
      out.println("WARNING (--force): the source looks live: " + w);
      LOG.warn("Importing a checkpoint that looks live (--force): {}", w);
    }

    // 2. The target: the source itself, this import done already, or absent.
    if (inPlace) {
      out.println("in place: " + where + ": the source is the target's directory; " + files.size() + " files, "
          + bytes + " bytes checked, nothing linked");
      return new CheckpointImport.Result(Outcome.IN_PLACE, files.size(), bytes, directories, 0, live);
    }
    if (Files.exists(dst, LinkOption.NOFOLLOW_LINKS)) {
      if (sameFiles(files, dst)) {
        out.println("already imported: " + where + " (nothing written)");
        return new CheckpointImport.Result(Outcome.ALREADY_IMPORTED, files.size(), bytes, directories, 0, live);
      }
      throw CheckpointAdoption.refused(targetPath, List.of("ckpt://" + target.toUri().getAuthority() + targetPath
          + " exists (" + dst + "), not as this import of " + src + ": import into a new location"), false);
    }
    java.nio.file.Path parent = Objects.requireNonNull(dst.getParent());
    String sameDevice = sameFileSystem(src, existingAncestor(parent));
    if (sameDevice != null) {
      throw CheckpointAdoption.refused(targetPath, List.of(sameDevice), false);
    }

    String batches = f.lastCommitted.isPresent() ? "last committed batch " + f.lastCommitted.getAsLong()
        : "no committed batch";
    out.printf("plan: %s: %d files, %d bytes, %d directories; %s; %d source logs and %d state stores checked%n",
        where, files.size(), bytes, directories, batches, f.sourceLogs, f.stateStores);
    out.printf("to do: %d hard links and %d directories under %s, then one rename; no data copied, nothing of the"
        + " source changed%n", files.size(), directories, dst);
    if (options.dryRun()) {
      out.println("dry run: nothing written");
      return new CheckpointImport.Result(Outcome.PLANNED, files.size(), bytes, directories, 0, live);
    }

    // 3. Links in the staging directory, then one rename publishes it.
    backend.mkdirs(target.getParent());
    java.nio.file.Path staging = parent.resolve("." + dst.getFileName() + "." + importId(src, targetPath)
        + LocalPathBackend.TMP_SUFFIX);
    long linked = 0;
    TreeSet<java.nio.file.Path> dirs = new TreeSet<>();
    dirs.add(staging);
    for (SourceFile file : files) {
      java.nio.file.Path to = staging.resolve(file.rel);
      if (dirs.add(to.getParent())) {
        Files.createDirectories(to.getParent());
      }
      if (Files.exists(to, LinkOption.NOFOLLOW_LINKS)) {
        if (Files.isSameFile(to, file.path)) {
          continue; // linked by an earlier run of this import
        }
        Files.delete(to); // the source's file was replaced since: link the current one
      }
      Files.createLink(to, file.path);
      linked++;
    }
    removeOthers(staging, files);
    for (java.nio.file.Path d : emptyDirectories(src)) {
      Files.createDirectories(staging.resolve(src.relativize(d).toString()));
    }
    if (backend.fsync()) {
      for (java.nio.file.Path d : dirs) {
        LocalPathBackend.syncDirectory(d);
      }
    }
    try {
      Files.move(staging, dst, StandardCopyOption.ATOMIC_MOVE);
    } catch (FileSystemException e) {
      throw CheckpointAdoption.refused(targetPath, List.of("ckpt://" + target.toUri().getAuthority() + targetPath
          + " was created while importing (" + e + "): import into a new location; the links made are in "
          + staging + " (gc removes them)"), false);
    }
    if (backend.fsync()) {
      LocalPathBackend.syncDirectory(parent);
    }
    out.printf("imported: %s: %d files, %d bytes, %d hard links made%n", where, files.size(), bytes, linked);
    return new CheckpointImport.Result(Outcome.IMPORTED, files.size(), bytes, directories, linked, live);
  }

  private static java.nio.file.Path sourceDir(URI source) throws IOException {
    if (!"file".equals(source.getScheme()) || source.getPath() == null || source.getPath().isEmpty()) {
      throw new IllegalArgumentException(source + ": expected file:///<path> (the local-path backend adopts a"
          + " checkpoint directory of a local or mounted file system)");
    }
    java.nio.file.Path p = java.nio.file.Path.of(source.getPath());
    if (!Files.isDirectory(p)) {
      throw new NoSuchFileException(p.toString(), null, "the source is not a directory");
    }
    return p.toRealPath();
  }

  /**
   * The source's regular files, sorted by relative path, without the {@code .NAME.crc} side files Hadoop's local
   * file system writes beside each file (the backend keeps none, and reading does not need them); a symbolic link or
   * other special file is a problem. Returns the number of directories, the source's included.
   */
  private static long walk(java.nio.file.Path src, List<SourceFile> files, List<String> problems)
      throws IOException {
    TreeMap<String, SourceFile> byRel = new TreeMap<>();
    long[] dirs = new long[1];
    List<java.nio.file.Path> all;
    try (Stream<java.nio.file.Path> s = Files.walk(src)) {
      all = s.collect(Collectors.toList());
    }
    for (java.nio.file.Path p : all) {
      BasicFileAttributes a;
      try {
        a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException gone) {
        continue; // a temporary file renamed or deleted while listing: the checks below see a live query
      }
      String rel = src.relativize(p).toString().replace('\\', '/');
      if (a.isDirectory()) {
        dirs[0]++;
      } else if (!a.isRegularFile()) {
        problems.add(p + " is not a regular file (a symbolic link or a special file): a checkpoint holds none");
      } else if (!isChecksumOfSibling(p)) {
        byRel.put(rel, new SourceFile(rel, p, a));
      }
    }
    files.addAll(byRel.values());
    return dirs[0];
  }

  /** Whether {@code p} is Hadoop's checksum side file {@code .NAME.crc} of a file {@code NAME} beside it. */
  static boolean isChecksumOfSibling(java.nio.file.Path p) {
    String name = p.getFileName().toString();
    if (!name.startsWith(".") || !name.endsWith(".crc") || name.length() <= ".x.crc".length() - 1) {
      return false;
    }
    java.nio.file.Path sibling = p.resolveSibling(name.substring(1, name.length() - ".crc".length()));
    return Files.isRegularFile(sibling, LinkOption.NOFOLLOW_LINKS);
  }

  /** Removes from the staging directory a file an earlier run linked that the source no longer has. */
  private static void removeOthers(java.nio.file.Path staging, List<SourceFile> files) throws IOException {
    TreeSet<String> rels = new TreeSet<>();
    files.forEach(f -> rels.add(f.rel));
    List<java.nio.file.Path> all;
    try (Stream<java.nio.file.Path> s = Files.walk(staging)) {
      all = s.filter(p -> !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)).collect(Collectors.toList());
    }
    for (java.nio.file.Path p : all) {
      if (!rels.contains(staging.relativize(p).toString().replace('\\', '/'))) {
        Files.delete(p);
      }
    }
  }

  private static List<java.nio.file.Path> emptyDirectories(java.nio.file.Path src) throws IOException {
    List<java.nio.file.Path> out = new ArrayList<>();
    try (Stream<java.nio.file.Path> s = Files.walk(src)) {
      for (java.nio.file.Path d : (Iterable<java.nio.file.Path>) s.filter(Files::isDirectory)::iterator) {
        try (Stream<java.nio.file.Path> c = Files.list(d)) {
          if (c.findAny().isEmpty()) {
            out.add(d);
          }
        }
      }
    }
    return out;
  }

  /** Whether every file of the source is, by the same relative path, the same file (inode) under {@code dst}. */
  private static boolean sameFiles(List<SourceFile> files, java.nio.file.Path dst) throws IOException {
    for (SourceFile f : files) {
      java.nio.file.Path t = dst.resolve(f.rel);
      if (!Files.exists(t, LinkOption.NOFOLLOW_LINKS) || !Files.isSameFile(t, f.path)) {
        return false;
      }
    }
    return true;
  }

  private static java.nio.file.Path existingAncestor(java.nio.file.Path p) {
    java.nio.file.Path a = p;
    while (a != null && !Files.exists(a)) {
      a = a.getParent();
    }
    return a;
  }

  /**
   * Null when source and target directory are on one file system (hard links work), else why not. Compares the
   * device ids where the platform has them ({@code unix:dev}); elsewhere the link itself fails.
   */
  private static String sameFileSystem(java.nio.file.Path src, java.nio.file.Path dstDir) throws IOException {
    if (dstDir == null) {
      return null;
    }
    try {
      Object a = Files.getAttribute(src, "unix:dev");
      Object b = Files.getAttribute(dstDir, "unix:dev");
      if (!a.equals(b)) {
        return src + " and " + dstDir + " are on different file systems (" + Files.getFileStore(src) + ", "
            + Files.getFileStore(dstDir) + "): hard links cannot cross them and import does not copy; use a"
            + " checkpoint root on the source's file system";
      }
    } catch (UnsupportedOperationException | IllegalArgumentException noUnixView) {
      return null;
    }
    return null;
  }

  /**
   * The staging directory's id ({@code .<name>.<id>.ckpt-tmp} beside the target): the same for every run of one
   * import, different for every other. Public for tests.
   */
  public static String importId(java.nio.file.Path src, String targetPath) {
    return "import-" + UUID.nameUUIDFromBytes(("objectcommit checkpoint import file\n" + src + "\n" + targetPath)
        .getBytes(StandardCharsets.UTF_8));
  }
}
