package io.objectcommit.checkpoint.impl;

import io.objectcommit.checkpoint.CheckpointImport;
import io.objectcommit.checkpoint.CheckpointImport.Result.Outcome;
import io.objectcommit.checkpoint.CheckpointImportException;
import io.objectcommit.checkpoint.files.DirManifest;
import io.objectcommit.checkpoint.files.DirManifest.Entry;
import io.objectcommit.store.Listings;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoredBytes;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adopts a stopped query's checkpoint, at a prefix of the namespace's own bucket, into the S3 backend's namespace
 * without copying data: one manifest per directory of the source, whose file entries name the source's objects as
 * they are (key, size, ETag), written bottom-up, then one conditional write links the top into the target's parent.
 * Nothing of the source is written, copied or deleted.
 *
 * <p>Idempotent and resumable: a directory's manifest id is derived from the source, the target and the directory
 * ({@link #dirId}), so a run after an interruption finds the manifests the first one wrote (an exclusive PUT is
 * refused, the manifest is read and kept when it says the same), and a run after a complete import finds the
 * target's entry naming this import's top manifest and writes nothing. Until the link, nothing refers to the new
 * manifests: an import interrupted and never run again leaves them to gc.
 *
 * <p>Before writing, the listing is checked against what the query needs to resume ({@link
 * StreamingCheckpointLayout}); a file it needs that the listing lacks is looked up with a HEAD, so that a listing
 * that lags behind the store is noticed (the import is refused: run it again), not trusted. The entries after the
 * newest batch are looked up too, for the same reason.
 */
public final class CheckpointAdoption {

  private static final Logger LOG = LoggerFactory.getLogger(CheckpointAdoption.class);
  /** Progress lines at most this often. */
  private static final long PROGRESS_EVERY_MS = 5_000;

  private final ManifestBackend backend;
  private final ObjectStore store;
  private final LongSupplier clock;

  public CheckpointAdoption(ManifestBackend backend) {
    this(backend, System::currentTimeMillis);
  }

  CheckpointAdoption(ManifestBackend backend, LongSupplier clock) {
    this.backend = backend;
    this.store = backend.store();
    this.clock = clock;
  }

  /** One directory of the source: its files (by name) and subdirectories. */
  private static final class Node {
    final String rel;
    final TreeMap<String, ObjectInfo> files = new TreeMap<>();
    final TreeMap<String, Node> dirs = new TreeMap<>();
    String id;
    long mtime;

    Node(String rel) {
      this.rel = rel;
    }

    Node dir(String name) {
      return dirs.computeIfAbsent(name, n -> new Node(rel.isEmpty() ? n : rel + "/" + n));
    }
  }

  /**
   * Imports {@code source} ({@code s3a://bucket/prefix}, the backend's bucket) into the logical path {@code target}.
   *
   * @throws CheckpointImportException when the import is refused (nothing written)
   */
  public CheckpointImport.Result run(URI source, Path target, CheckpointImport.Options options, PrintStream out)
      throws IOException {
    String prefix = sourcePrefix(source);
    List<String> comps = ManifestBackend.components(target);
    String targetPath = ManifestBackend.pathString(comps, comps.size());
    String where = store.pathOf(prefix) + " -> ckpt://" + store.bucket() + targetPath;
    if (comps.isEmpty()) {
      throw refused(targetPath, List.of("the target is the namespace's root: import into a directory of it"), false);
    }
    String topId = dirId(prefix, targetPath, "");
    Optional<Entry> existing = existingTarget(comps);
    if (existing.isPresent()) {
      if (existing.get().isDir() && topId.equals(existing.get().id)) {
        out.println("already imported: " + where + " (nothing written)");
        return new CheckpointImport.Result(Outcome.ALREADY_IMPORTED, 0, 0, 0, 0, List.of());
      }
      throw refused(targetPath, List.of("ckpt://" + store.bucket() + targetPath + " exists (not as this import of "
          + store.pathOf(prefix) + "): import into a new location"), false);
    }

    // 1. What the source holds (LIST: housekeeping, cross-checked below).
    Node root = new Node("");
    long[] totals = new long[3]; // files, bytes, newest mtime
    List<ObjectInfo> newest = new ArrayList<>(1);
    List<String> rels = new ArrayList<>();
    long[] listed = new long[1];
    Listings.forEach(store, prefix, o -> {
      listed[0]++;
      String rel = o.key().substring(prefix.length());
      add(root, rel, o, targetPath);
      if (!rel.isEmpty() && !rel.endsWith("/") && !rel.endsWith("_$folder$")) {
        rels.add(rel);
        totals[0]++;
        totals[1] += o.size();
        if (newest.isEmpty() || o.lastModified() > newest.get(0).lastModified()) {
          newest.clear();
          newest.add(o);
        }
      }
    });
    if (totals[0] == 0) {
      throw refused(store.pathOf(prefix), List.of("no objects under " + store.pathOf(prefix)), false);
    }

    // 2. What the query needs, against what was listed; a gap is looked up, not trusted.
    StreamingCheckpointLayout.Findings f = StreamingCheckpointLayout.check(rels);
    List<String> problems = new ArrayList<>();
    long heads = 0;
    for (Map.Entry<String, String> m : f.missing.entrySet()) {
      if (!StreamingCheckpointLayout.isLookup(m.getKey())) {
        problems.add(store.pathOf(prefix + m.getKey()) + " is missing: " + m.getValue());
        continue;
      }
      heads++;
      if (store.head(prefix + m.getKey()).isPresent()) {
        problems.add(store.pathOf(prefix + m.getKey()) + " exists but the listing did not show it: the listing lags"
            + " behind the store; run the import again later");
      } else {
        problems.add(store.pathOf(prefix + m.getKey()) + " is missing: it is needed for " + m.getValue());
      }
    }
    List<String> next = new ArrayList<>();
    if (f.lastOffsets.isPresent()) {
      next.add("offsets/" + (f.lastOffsets.getAsLong() + 1));
    }
    if (f.lastCommitted.isPresent()) {
      next.add("commits/" + (f.lastCommitted.getAsLong() + 1));
    }
    for (String n : next) {
      heads++;
      if (store.head(prefix + n).isPresent()) {
        problems.add(store.pathOf(prefix + n) + " exists but the listing did not show it: the listing lags behind"
            + " the store, or the query is running; run the import again when it is stopped");
      }
    }
    if (!problems.isEmpty()) {
      throw refused(store.pathOf(prefix), problems, false);
    }
    List<String> live = new ArrayList<>();
    for (String sign : f.liveSigns) {
      live.add(store.pathOf(prefix) + ": " + sign);
    }
    long ageMs = clock.getAsLong() - newest.get(0).lastModified();
    if (ageMs < options.idle().toMillis()) {
      live.add(store.pathOf(newest.get(0).key()) + " was written " + Math.max(0, ageMs / 1000) + " s ago, less than"
          + " the idle time (" + options.idle().toSeconds() + " s) a stopped query's checkpoint must have");
    }
    if (!live.isEmpty() && !options.force()) {
      throw refused(store.pathOf(prefix), live, true);
    }
    for (String w : live) {
      out.println("WARNING (--force): the source looks live: " + w);
      LOG.warn("Importing a checkpoint that looks live (--force): {}", w);
    }

    long directories = count(root);
    String batches = f.lastCommitted.isPresent() ? "last committed batch " + f.lastCommitted.getAsLong()
        : "no committed batch";
    out.printf("plan: %s: %d files, %d bytes, %d directories; %s; %d source logs and %d state stores checked%n",
        where, totals[0], totals[1], directories, batches, f.sourceLogs, f.stateStores);
    out.printf("requests: %d LIST and %d HEAD done; to write %d manifests (PUT each) and link the target (1"
        + " conditional PUT, and 2 PUTs per missing parent directory); no COPY, no PUT or DELETE of data objects%n",
        (listed[0] + Listings.PAGE_SIZE - 1) / Listings.PAGE_SIZE, heads, directories);
    if (options.dryRun()) {
      out.println("dry run: nothing written");
      return new CheckpointImport.Result(Outcome.PLANNED, totals[0], totals[1], directories, 0, live);
    }

    // 3. Manifests bottom-up, then the link.
    long[] progress = new long[] {0, 0, 0, clock.getAsLong()}; // manifests written, files, bytes, last report
    write(root, prefix, targetPath, progress, totals, out);
    ManifestStore manifests = backend.manifests();
    int n = comps.size();
    String parentId = backend.mkdirsAndGetId(comps, n - 1, target);
    String name = comps.get(n - 1);
    Entry before = manifests.update(parentId, ManifestBackend.pathString(comps, n - 1), m -> {
      Entry cur = m.entries.get(name);
      if (cur == null) {
        m.entries.put(name, Entry.dir(root.id, root.mtime));
      }
      return cur;
    });
    if (before != null && !(before.isDir() && root.id.equals(before.id))) {
      throw refused(targetPath, List.of("ckpt://" + store.bucket() + targetPath + " was created while importing:"
          + " import into a new location"), false);
    }
    out.printf("imported: %s: %d files, %d bytes, %d manifests written%n", where, totals[0], totals[1], progress[0]);
    return new CheckpointImport.Result(before == null ? Outcome.IMPORTED : Outcome.ALREADY_IMPORTED, totals[0],
        totals[1], directories, progress[0], live);
  }

  /** The target's entry, if it exists (its parents may not). */
  private Optional<Entry> existingTarget(List<String> comps) throws IOException {
    try {
      ManifestBackend.Dir parent = backend.resolve(comps, comps.size() - 1);
      return Optional.ofNullable(backend.manifests().get(parent.id, parent.path, 0).manifest.entries
          .get(comps.get(comps.size() - 1)));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (ParentNotDirectoryException e) {
      throw refused(ManifestBackend.pathString(comps, comps.size()), List.of(e.getMessage()), false);
    }
  }

  private String sourcePrefix(URI source) throws IOException {
    String scheme = source.getScheme();
    if (scheme == null || !(scheme.equals("s3a") || scheme.equals("s3"))) {
      throw new IllegalArgumentException(source + ": expected s3a://<bucket>/<path> (the S3 backend adopts objects"
          + " of its own bucket)");
    }
    if (!store.bucket().equals(source.getAuthority())) {
      throw new IllegalArgumentException(source + " is in bucket " + source.getAuthority() + ", the checkpoint"
          + " namespace in " + store.bucket() + ": an import adopts objects of the namespace's own bucket (copy-free)");
    }
    String p = source.getPath() == null ? "" : source.getPath().replaceAll("^/+", "").replaceAll("/+$", "");
    if (p.isEmpty()) {
      throw new IllegalArgumentException(source + ": name the checkpoint's directory, not the bucket");
    }
    String prefix = p + "/";
    String ns = backend.prefix() + ".ckpt/";
    if (prefix.startsWith(ns) || ns.startsWith(prefix)) {
      throw new IllegalArgumentException(source + " holds the checkpoint namespace's own objects (" + store.pathOf(ns)
          + ")");
    }
    return prefix;
  }

  /** Adds a listed object to the tree: a file, or a directory marker (S3A's {@code dir/}, EMRFS's {@code _$folder$}). */
  private static void add(Node root, String rel, ObjectInfo o, String targetPath) {
    boolean marker = rel.endsWith("/") || rel.endsWith("_$folder$");
    String path = rel.endsWith("/") ? rel.substring(0, rel.length() - 1)
        : rel.endsWith("_$folder$") ? rel.substring(0, rel.length() - "_$folder$".length()) : rel;
    if (path.isEmpty()) {
      return; // the source's own marker
    }
    String[] parts = path.split("/", -1);
    Node n = root;
    for (int i = 0; i < parts.length; i++) {
      String c = parts[i];
      if (c.isEmpty() || ".".equals(c) || "..".equals(c)) {
        throw new IllegalArgumentException("key " + o.key() + " is not a path of a file system (component '" + c
            + "'): it cannot be imported into " + targetPath);
      }
      if (i < parts.length - 1 || marker) {
        n = n.dir(c);
      } else {
        n.files.put(c, o);
      }
    }
    for (String name : n.files.keySet()) {
      if (n.dirs.containsKey(name)) {
        throw new IllegalArgumentException(n.rel + "/" + name + " is both a file and a directory in the listing");
      }
    }
  }

  private static long count(Node n) {
    long c = 1;
    for (Node d : n.dirs.values()) {
      c += count(d);
    }
    return c;
  }

  /** Writes the manifests of {@code n}'s subtree, children first, and sets each node's id and time. */
  private void write(Node n, String prefix, String targetPath, long[] progress, long[] totals, PrintStream out)
      throws IOException {
    String path = n.rel.isEmpty() ? targetPath : targetPath + "/" + n.rel;
    DirManifest m = DirManifest.empty(dirId(prefix, targetPath, n.rel), path);
    long mtime = 0;
    for (Map.Entry<String, Node> d : n.dirs.entrySet()) {
      write(d.getValue(), prefix, targetPath, progress, totals, out);
      m.entries.put(d.getKey(), Entry.dir(d.getValue().id, d.getValue().mtime));
      mtime = Math.max(mtime, d.getValue().mtime);
    }
    for (Map.Entry<String, ObjectInfo> f : n.files.entrySet()) {
      ObjectInfo o = f.getValue();
      m.entries.put(f.getKey(), Entry.adopted(o.key(), o.size(), o.lastModified(), o.etag()));
      mtime = Math.max(mtime, o.lastModified());
      progress[1]++;
      progress[2] += o.size();
    }
    m.validate();
    if (putManifest(m, path)) {
      progress[0]++;
    }
    n.id = m.dirId;
    n.mtime = mtime;
    long now = clock.getAsLong();
    if (now - progress[3] >= PROGRESS_EVERY_MS) {
      progress[3] = now;
      out.printf("progress: %d of %d files, %d of %d bytes%n", progress[1], totals[0], progress[2], totals[1]);
    }
  }

  /**
   * Writes a new directory's manifest with an exclusive PUT. Refused: an earlier run of this import wrote it; kept
   * when it lists the same entries, else (the source changed meanwhile) replaced: nothing refers to it yet.
   *
   * @return whether it was written
   */
  private boolean putManifest(DirManifest m, String path) throws IOException {
    ManifestStore manifests = backend.manifests();
    String key = manifests.manifestKey(m.dirId);
    Payload body = Payload.of(DirManifest.CODEC.toBytes(m));
    try {
      store.createExclusive(key, body);
      return true;
    } catch (FileAlreadyExistsException exists) {
      StoredBytes old = store.getBytes(key);
      DirManifest there = DirManifest.CODEC.fromBytes(old.data(), store.pathOf(key));
      if (there.entries.equals(m.entries)) {
        LOG.debug("Manifest {} of {} written by an earlier run", key, path);
        return false;
      }
      store.replaceIfMatch(key, body, old.info().etag());
      return true;
    }
  }

  /** A directory's manifest id: the same for every run of one import, different for every other. */
  static String dirId(String sourcePrefix, String targetPath, String rel) {
    return "import-" + UUID.nameUUIDFromBytes(("objectcommit checkpoint import\n" + sourcePrefix + "\n" + targetPath
        + "\n" + rel).getBytes(StandardCharsets.UTF_8));
  }

  static CheckpointImportException refused(String path, List<String> reasons, boolean forceable) {
    StringBuilder msg = new StringBuilder("import refused, nothing written:");
    for (String r : reasons) {
      msg.append("\n  - ").append(r);
    }
    if (forceable) {
      msg.append("\nstop the query first; if it is stopped, --force imports all the same (Spark runs an uncommitted"
          + " batch again when the query restarts)");
    }
    return new CheckpointImportException(path, reasons, forceable, msg.toString());
  }
}
