package io.objectcommit.checkpoint.impl;

import io.objectcommit.checkpoint.files.DirManifest.Entry;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import java.io.IOException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Path;

/**
 * How a file of the S3 backend becomes visible: its bytes are uploaded as a new, immutable data object (one PUT, or
 * a multipart upload for large files), then one conditional write of the parent directory's manifest names it.
 * Nothing is visible before that write; if it fails (with {@code overwrite=false}: because the name exists), the
 * data object is deleted. Made by {@link ManifestBackend#create} with the directory it resolved, once per file.
 */
final class ManifestPublication implements Publication<Payload> {

  private final ObjectStore store;
  private final ManifestStore manifests;
  private final Path path;
  private final String parentId;
  private final String parentPath;
  private final String name;
  private final String dataKey;
  private final boolean overwrite;

  /**
   * @param parentId id of the manifest of the directory the file goes into
   * @param parentPath that directory's path, for messages
   * @param name the file's name in it
   * @param dataKey a new, unique key for the file's bytes
   * @param overwrite whether an existing file of that name is replaced (else the publication fails)
   */
  ManifestPublication(ObjectStore store, ManifestStore manifests, Path path, String parentId, String parentPath,
      String name, String dataKey, boolean overwrite) {
    this.store = store;
    this.manifests = manifests;
    this.path = path;
    this.parentId = parentId;
    this.parentPath = parentPath;
    this.name = name;
    this.dataKey = dataKey;
    this.overwrite = overwrite;
  }

  @Override
  public void publish(Payload bytes) throws IOException {
    long size = bytes.length();
    // The key is new and unique (a random suffix): an unconditional PUT cannot clobber anything.
    store.put(dataKey, bytes, WriteCondition.none());
    Entry replaced;
    try {
      replaced = manifests.update(parentId, parentPath, m -> {
        Entry cur = m.entries.get(name);
        if (cur != null && (cur.isDir() || !overwrite)) {
          throw new FileAlreadyExistsException(path + (cur.isDir() ? " is a directory" : " already exists"));
        }
        m.entries.put(name, Entry.file(dataKey, size, System.currentTimeMillis()));
        return cur;
      });
    } catch (IOException | RuntimeException e) {
      Garbage.delete(store, dataKey, "unpublished data of " + path);
      throw e;
    }
    if (replaced != null) {
      Garbage.delete(store, replaced.data, "replaced data of " + path);
    }
  }

  @Override
  public String toString() {
    return path + " -> " + store.pathOf(dataKey);
  }
}
