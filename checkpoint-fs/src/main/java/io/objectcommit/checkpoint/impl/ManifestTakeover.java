package io.objectcommit.checkpoint.impl;

import io.objectcommit.checkpoint.files.DirManifest;
import io.objectcommit.checkpoint.files.DirManifest.Entry;
import io.objectcommit.store.Parallel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A takeover of a checkpoint location on the S3 backend (docs/checkpoint-format.md#fencing): raises the epoch in
 * the manifest of the location's directory (made if missing), then stamps every directory's manifest under it
 * with the new owner, top down and a level at a time ({@link #THREADS} at once). Each stamp is a conditional write,
 * so every ETag an older owner cached is stale afterwards: its next write is refused, and the fresh read shows the
 * newer epoch. A directory is stamped from the listing of its parent as stamped: a directory an older owner adds
 * later must be linked in a stamped parent, which refuses it, so none is missed.
 *
 * <p>Requests: one PUT per directory, and one GET per directory the process has not cached (a new driver: all of
 * them), besides the reads of the location's ancestors.
 */
final class ManifestTakeover {

  private static final Logger LOG = LoggerFactory.getLogger(ManifestTakeover.class);
  /** Directories stamped at once. */
  static final int THREADS = 8;

  private final ManifestBackend backend;

  ManifestTakeover(ManifestBackend backend) {
    this.backend = backend;
  }

  /** A directory to stamp. */
  private static final class Dir {
    final String id;
    final String path;

    Dir(String id, String path) {
      this.id = id;
      this.path = path;
    }
  }

  DirManifest.Owner takeOver(Path location, String ownerId) throws IOException {
    if (ownerId == null || ownerId.isEmpty()) {
      throw new IllegalArgumentException("no owner id for the takeover of " + location);
    }
    long started = System.nanoTime();
    List<String> comps = ManifestBackend.components(location);
    String loc = ManifestBackend.pathString(comps, comps.size());
    ManifestStore manifests = backend.manifests();
    String topId = backend.mkdirsAndGetId(comps, comps.size(), location);
    DirManifest.Owner mine = manifests.claim(topId, loc, ownerId);
    Fence fence = Fence.of(mine).forOperation("takeover of " + loc + " by owner '" + ownerId + "'");
    List<Dir> level = childDirs(manifests.get(topId, loc, Long.MAX_VALUE).manifest, loc);
    int stamped = 1;
    try (Parallel parallel = new Parallel("ckpt-takeover", THREADS)) {
      while (!level.isEmpty()) {
        List<Parallel.IoTask<List<Dir>>> tasks = new ArrayList<>(level.size());
        for (Dir d : level) {
          tasks.add(() -> childDirs(manifests.stamp(d.id, d.path, fence), d.path));
        }
        List<Dir> next = new ArrayList<>();
        for (List<Dir> children : parallel.runAll(tasks)) {
          next.addAll(children);
        }
        stamped += level.size();
        level = next;
      }
    }
    LOG.info("Took ownership of {} as {}: {} directories stamped in {} ms", backend.store().pathOf(
        backend.prefix() + loc.substring(1)), mine, stamped, (System.nanoTime() - started) / 1_000_000);
    return mine;
  }

  private static List<Dir> childDirs(DirManifest m, String path) {
    List<Dir> out = new ArrayList<>();
    for (Map.Entry<String, Entry> e : m.entries.entrySet()) {
      if (e.getValue().isDir()) {
        out.add(new Dir(e.getValue().id, ("/".equals(path) ? "" : path) + "/" + e.getKey()));
      }
    }
    return out;
  }
}
