package io.objectcommit.checkpoint.impl;

import io.objectcommit.checkpoint.CheckpointConstants;
import io.objectcommit.checkpoint.files.DirManifest;
import io.objectcommit.checkpoint.files.DirManifest.Entry;
import io.objectcommit.store.Listings;
import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Parallel;
import io.objectcommit.store.guarantee.ProbeSite;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Housekeeping of the S3 backend's namespace: the logical tree, a verification of every manifest and data
 * object, and garbage collection of objects no manifest refers to. Only garbage collection lists the bucket; it
 * never touches an object that does not look like one of ours.
 */
public final class ManifestInspector {

  private static final Logger LOG = LoggerFactory.getLogger(ManifestInspector.class);
  private static final String GC = "objectcommit checkpoint gc";

  /** Data objects end with "~" and 16 hex digits. */
  static final Pattern DATA_KEY = Pattern.compile(".*~[0-9a-f]{16}$");

  private final ManifestBackend backend;

  public ManifestInspector(ManifestBackend backend) {
    this.backend = backend;
  }

  /** Whether a key looks like one of the namespace's objects: a manifest, a store check's object, a data object. */
  private boolean ours(String key) {
    return key.startsWith(backend.manifests().manifestsPrefix())
        || key.startsWith(backend.prefix() + CheckpointConstants.PROBE_DIR) || DATA_KEY.matcher(key).matches();
  }

  /** What a versioned bucket keeps of the namespace's objects besides their current versions. */
  public static final class Versions {
    /** {@code s3://bucket/prefix} of the namespace. */
    public final String location;
    /** Versions that are neither current nor delete markers: replaced manifests, deleted objects' last bytes. */
    public long noncurrent;
    public long noncurrentBytes;
    /** Delete markers, current or not. */
    public long deleteMarkers;

    Versions(String location) {
      this.location = location;
    }
  }

  /**
   * Counts the noncurrent versions and delete markers of the namespace's objects (ListObjectVersions under the
   * namespace prefix, 1,000 entries a request; keys that are not ours are skipped, as gc skips them). Deletes
   * nothing: on a versioned bucket a lifecycle rule expires them. An unversioned bucket has none.
   */
  public Versions versions() throws IOException {
    Versions v = new Versions(backend.store().pathOf(backend.prefix()));
    Listings.forEachVersion(backend.store(), backend.prefix(), o -> {
      if (!ours(o.key())) {
        return;
      }
      if (o.isDeleteMarker()) {
        v.deleteMarkers++;
      } else if (o.isNoncurrent()) {
        v.noncurrent++;
        v.noncurrentBytes += Math.max(0, o.size());
      }
    });
    return v;
  }

  /** Totals of a walk. */
  public static final class Summary {
    public long directories;
    public long files;
    public long bytes;
    public final List<String> problems = new ArrayList<>();
  }

  /** Prints the tree under {@code path} (one line per entry: size or "dir", path) and returns the totals. */
  public Summary list(String path, PrintStream out) throws IOException {
    List<String> comps = ManifestBackend.components(new Path(path));
    ManifestBackend.Dir dir = backend.resolve(comps, comps.size());
    Summary s = new Summary();
    walk(dir.id, dir.path, s, out, false);
    return s;
  }

  /**
   * Reads every manifest under {@code path} (each is validated on load) and checks that every file's data object
   * exists with the recorded size, and, for a file adopted by a checkpoint import, the ETag it had then (one HEAD
   * per file).
   */
  public Summary verify(String path, PrintStream out) throws IOException {
    List<String> comps = ManifestBackend.components(new Path(path));
    ManifestBackend.Dir dir = backend.resolve(comps, comps.size());
    Summary s = new Summary();
    walk(dir.id, dir.path, s, out, true);
    return s;
  }

  private void walk(String dirId, String path, Summary s, PrintStream out, boolean check) throws IOException {
    s.directories++;
    DirManifest m = backend.manifests().get(dirId, path, 0).manifest;
    for (Map.Entry<String, Entry> e : m.entries.entrySet()) {
      String child = ("/".equals(path) ? "" : path) + "/" + e.getKey();
      Entry v = e.getValue();
      if (v.isDir()) {
        if (out != null && !check) {
          out.printf("%12s  %s/%n", "dir", child);
        }
        walk(v.id, child, s, out, check);
      } else {
        s.files++;
        s.bytes += v.size;
        if (out != null && !check) {
          out.printf("%12d  %s%n", v.size, child);
        }
        if (check && !v.isInline()) {
          Optional<ObjectInfo> data = backend.store().head(v.data);
          String adopted = v.etag == null ? "" : " (adopted by checkpoint import: changed or deleted behind"
              + " objectcommit's back, for example by the old query run again on its s3a:// location)";
          if (data.isEmpty()) {
            s.problems.add(child + ": data object " + backend.store().pathOf(v.data) + " is missing" + adopted);
          } else if (data.get().size() != v.size) {
            s.problems.add(child + ": data object " + backend.store().pathOf(v.data) + " has " + data.get().size()
                + " bytes, manifest says " + v.size + adopted);
          } else if (v.etag != null && !v.etag.equals(data.get().etag())) {
            s.problems.add(child + ": data object " + backend.store().pathOf(v.data) + " has ETag "
                + data.get().etag() + ", adopted with ETag " + v.etag + adopted);
          }
        }
      }
    }
  }

  /** Every key the namespace refers to: manifests of reachable directories and data objects of their files. */
  private Set<String> referenced() throws IOException {
    Set<String> keys = new HashSet<>();
    collect(DirManifest.ROOT_ID, "/", keys);
    return keys;
  }

  private void collect(String dirId, String path, Set<String> keys) throws IOException {
    keys.add(backend.manifests().manifestKey(dirId));
    for (Map.Entry<String, Entry> e : backend.manifests().get(dirId, path, 0).manifest.entries.entrySet()) {
      if (e.getValue().isDir()) {
        collect(e.getValue().id, path + e.getKey() + "/", keys);
      } else if (!e.getValue().isInline()) {
        keys.add(e.getValue().data);
      }
    }
  }

  /** What gc did: the keys deleted (or that would be), and those kept because a newer object is there now. */
  public static final class Collected {
    public final List<String> deleted;
    public final List<String> kept;

    Collected(List<String> deleted, List<String> kept) {
      this.deleted = List.copyOf(deleted);
      this.kept = List.copyOf(kept);
    }
  }

  /** Conditional deletes sent at once: gc's objects are independent, and one at a time would be slow on many. */
  static final int DELETE_THREADS = 16;

  /**
   * Deletes data objects and manifests that no reachable manifest refers to and that are older than
   * {@code minAgeMs} (objects of writes still in flight are young), and what an interrupted store guarantee check
   * left under the namespace's {@value CheckpointConstants#PROBE_DIR} (a running check's objects are young, and
   * deleted by it). Lists the namespace prefix: housekeeping only.
   *
   * <p>Where the store honours {@code If-Match} on DeleteObject ({@code ObjectStore.conditionalDeletes}), each
   * object is deleted only while it is still the one listed (its ETag): an object written again at its key after
   * the listing (the decision was about the listed one, old and unreferenced) is kept, counted and logged at INFO,
   * never a failure. That costs one DELETE per object ({@value #DELETE_THREADS} at a time) instead of one per 1,000:
   * DeleteObjects' per-object ETag is not in the SDK versions we build with and is ignored by LocalStack, moto and
   * S3Mock (docs/stores.md). Elsewhere one bulk DELETE per 1,000 keys, unconditional, as before.
   */
  public Collected collectGarbage(long minAgeMs, boolean dryRun, PrintStream out) throws IOException {
    Set<String> live = referenced();
    long cutoff = System.currentTimeMillis() - minAgeMs;
    List<ObjectInfo> garbage = new ArrayList<>();
    Listings.forEach(backend.store(), backend.prefix(), o -> {
      if (ours(o.key()) && !live.contains(o.key()) && o.lastModified() < cutoff) {
        garbage.add(o);
        if (out != null) {
          out.println((dryRun ? "would delete " : "delete ") + backend.store().pathOf(o.key()));
        }
      }
    });
    List<String> keys = new ArrayList<>();
    garbage.forEach(o -> keys.add(o.key()));
    if (dryRun || garbage.isEmpty()) {
      return new Collected(keys, List.of());
    }
    ObjectStore store = backend.store();
    ProbeSite site = ProbeSite.under(backend.prefix() + CheckpointConstants.PROBE_DIR)
        .forOperation("checkpoint gc " + store.pathOf(backend.prefix()));
    if (!store.conditionalDeletes(GC, site)) {
      LOG.info("{}: the store does not honour If-Match on DeleteObject: deleting {} objects unconditionally",
          GC, keys.size());
      store.deleteBatch(keys);
      return new Collected(keys, List.of());
    }
    List<Parallel.IoTask<String>> deletes = new ArrayList<>();
    for (ObjectInfo o : garbage) {
      deletes.add(() -> {
        try {
          store.delete(o.key(), o.etag());
          return null;
        } catch (ObjectChangedException newer) {
          LOG.info("{}: kept {}: written again since gc listed it (ETag {} then)", GC, store.pathOf(o.key()),
              o.etag());
          return o.key();
        }
      });
    }
    List<String> kept = new ArrayList<>();
    try (Parallel threads = new Parallel("objectcommit-checkpoint-gc", Math.min(DELETE_THREADS, deletes.size()))) {
      for (String k : threads.runAll(deletes)) {
        if (k != null) {
          kept.add(k);
        }
      }
    }
    List<String> deleted = new ArrayList<>(keys);
    deleted.removeAll(kept);
    if (out != null) {
      kept.forEach(k -> out.println("kept " + store.pathOf(k) + ": written again since it was listed"));
    }
    return new Collected(deleted, kept);
  }
}
