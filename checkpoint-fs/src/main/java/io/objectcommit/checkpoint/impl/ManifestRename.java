package io.objectcommit.checkpoint.impl;

import io.objectcommit.checkpoint.files.DirManifest.Entry;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rename on the S3 backend: moves one manifest entry, never data. A file or a whole directory (its entry carries
 * the id of its manifest) moves in O(1): within one directory it is one conditional write; between two
 * directories it is two (add at the destination, then remove at the source), so a crash between them leaves the
 * entry visible under both names, never under none.
 *
 * <p>Follows the FileSystem specification as HDFS does: false when the source is missing, when the destination
 * exists as a file, when its parent does not exist, or when a directory would move into itself.
 */
final class ManifestRename {

  private static final Logger LOG = LoggerFactory.getLogger(ManifestRename.class);

  private final ManifestBackend b;

  ManifestRename(ManifestBackend backend) {
    this.b = backend;
  }

  boolean rename(Path src, Path dst) throws IOException {
    List<String> s = ManifestBackend.components(src);
    List<String> d = ManifestBackend.components(dst);
    if (s.isEmpty()) {
      return false; // the root cannot move
    }
    ManifestBackend.Dir srcParent;
    try {
      srcParent = b.resolve(s, s.size() - 1);
    } catch (FileNotFoundException | ParentNotDirectoryException e) {
      return false;
    }
    String srcName = ManifestBackend.last(s);
    String operation = "rename " + ManifestBackend.pathString(s, s.size()) + " to " + ManifestBackend.pathString(d,
        d.size());
    Entry entry = b.manifests().get(srcParent.id, srcParent.path, 0).manifest.entries.get(srcName);
    if (entry == null) {
      return false;
    }
    if (s.equals(d)) {
      return !entry.isDir(); // a file renamed onto itself: done; a directory onto itself: refused
    }
    if (entry.isDir() && d.size() > s.size() && d.subList(0, s.size()).equals(s)) {
      return false; // into its own subtree
    }
    // Destination: an existing directory means "into it".
    ManifestBackend.Dir dstParent;
    String dstName;
    ManifestBackend.Dir asDir = resolveQuietly(d, d.size());
    if (asDir != null) {
      dstParent = asDir;
      dstName = srcName;
    } else {
      if (d.isEmpty()) {
        return false;
      }
      dstParent = resolveQuietly(d, d.size() - 1);
      if (dstParent == null) {
        return false; // no parent directory
      }
      dstName = ManifestBackend.last(d);
    }
    if (dstParent.id.equals(srcParent.id)) {
      if (dstName.equals(srcName)) {
        return true;
      }
      return b.manifests().update(srcParent.id, srcParent.path, b.fenceFor(s, s.size() - 1, operation), m -> {
        Entry cur = m.entries.get(srcName);
        if (cur == null || !cur.equals(entry) || m.entries.containsKey(dstName)) {
          return Boolean.FALSE;
        }
        m.entries.remove(srcName);
        m.entries.put(dstName, cur);
        return Boolean.TRUE;
      });
    }
    boolean added = b.manifests().update(dstParent.id, dstParent.path,
        b.fenceFor(ManifestBackend.components(new Path(dstParent.path)), ManifestBackend.components(
            new Path(dstParent.path)).size(), operation), m -> {
      if (m.entries.containsKey(dstName)) {
        return Boolean.FALSE;
      }
      m.entries.put(dstName, entry.copy());
      return Boolean.TRUE;
    });
    if (!added) {
      return false;
    }
    boolean removed = b.manifests().update(srcParent.id, srcParent.path, b.fenceFor(s, s.size() - 1, operation),
        m -> {
      Entry cur = m.entries.get(srcName);
      if (cur == null || !cur.equals(entry)) {
        return Boolean.FALSE;
      }
      m.entries.remove(srcName);
      return Boolean.TRUE;
    });
    if (!removed) {
      LOG.warn("Renamed {} to {}, but the source entry changed meanwhile and was left in place", src, dst);
    }
    return true;
  }

  private ManifestBackend.Dir resolveQuietly(List<String> comps, int n) throws IOException {
    try {
      return b.resolve(comps, n);
    } catch (FileNotFoundException | ParentNotDirectoryException e) {
      return null;
    }
  }
}
