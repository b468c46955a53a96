package io.objectcommit.checkpoint.impl;

import io.objectcommit.checkpoint.CheckpointFencedException;
import io.objectcommit.checkpoint.files.DirManifest;
import io.objectcommit.checkpoint.files.DirManifest.Entry;
import io.objectcommit.store.CasConflictException;
import io.objectcommit.store.CleanUp;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a file of the S3 backend becomes visible: one conditional write of the parent directory's manifest names it.
 * A small file's bytes go into that write ({@link InlineLimits}): one request in all. A larger file's bytes are first
 * uploaded as a new, immutable data object (one PUT, or a multipart upload for large files). Nothing is visible
 * before the manifest write; if it is refused (with {@code overwrite=false}: because the name exists), a data object
 * uploaded for it is deleted; if it fails otherwise, a fresh read of the manifest tells whether it was applied
 * before the data object is deleted (never one the manifest names). A file and its checksum file closed at once go
 * into one manifest write ({@link ChecksumPairs}). Made by {@link ManifestBackend#create} with the directory it
 * resolved, once per file.
 */
final class ManifestPublication implements Publication<Payload> {

  private static final Logger LOG = LoggerFactory.getLogger(ManifestPublication.class);

  /** What the inline write did: nothing, for lack of room in the manifest, or published, replacing an entry or none. */
  private static final class Inline {
    static final Inline NO_ROOM = new Inline(false, null);

    final boolean published;
    final Entry replaced;

    Inline(boolean published, Entry replaced) {
      this.published = published;
      this.replaced = replaced;
    }
  }

  private final ObjectStore store;
  private final ManifestStore manifests;
  private final Path path;
  private final String parentId;
  private final String parentPath;
  private final String name;
  private final String dataKey;
  private final boolean overwrite;
  private final InlineLimits inline;
  private final Fence fence;
  private final ChecksumPairs.Slot slot;

  /**
   * @param parentId id of the manifest of the directory the file goes into
   * @param parentPath that directory's path, for messages
   * @param name the file's name in it
   * @param dataKey a new, unique key for the file's bytes
   * @param overwrite whether an existing file of that name is replaced (else the publication fails)
   * @param inline which files are kept in the manifest
   * @param fence the writer's fence in the parent directory ({@link Fence#NONE}: none)
   * @param slot the file's place among the files being written, through which its manifest changes go (written
   *     with its checksum file's when both are closed at once: {@link ChecksumPairs})
   */
  ManifestPublication(ObjectStore store, ManifestStore manifests, Path path, String parentId, String parentPath,
      String name, String dataKey, boolean overwrite, InlineLimits inline, Fence fence, ChecksumPairs.Slot slot) {
    this.store = store;
    this.manifests = manifests;
    this.path = path;
    this.parentId = parentId;
    this.parentPath = parentPath;
    this.name = name;
    this.dataKey = dataKey;
    this.overwrite = overwrite;
    this.inline = inline;
    this.fence = fence;
    this.slot = slot;
  }

  @Override
  public void publish(Payload bytes) throws IOException {
    slot.closing();
    try {
      publishNow(bytes);
    } finally {
      slot.release();
    }
  }

  @Override
  public void abandon() {
    slot.release();
  }

  private void publishNow(Payload bytes) throws IOException {
    long size = bytes.length();
    if (inline.allowsFile(size)) {
      byte[] content = read(bytes);
      Inline done = slot.update(parentPath, fence, m -> {
        Entry cur = existing(m);
        if (!inline.allowsInDirectory(m.inlineBytes() - (cur == null ? 0 : cur.inlineSize()), size)) {
          return Inline.NO_ROOM; // nothing changed: nothing written
        }
        m.entries.put(name, Entry.inlineFile(content, System.currentTimeMillis()));
        return new Inline(true, cur);
      });
      if (done.published) {
        cleanUpReplaced(done.replaced);
        return;
      }
    }
    // The key is new and unique (a random suffix): an unconditional PUT cannot clobber anything.
    try {
      store.put(dataKey, bytes, WriteCondition.none());
    } catch (AccessDeniedException e) {
      throw e; // refused: nothing stored
    } catch (IOException | RuntimeException e) {
      // It may have been stored all the same (an interrupt or a lost answer after the upload): nothing names it.
      deleteData();
      throw e;
    }
    Entry replaced;
    try {
      replaced = slot.update(parentPath, fence, m -> {
        Entry cur = existing(m);
        m.entries.put(name, Entry.file(dataKey, size, System.currentTimeMillis()));
        return cur;
      });
    } catch (FileAlreadyExistsException | CheckpointFencedException | CasConflictException e) {
      // refused: no write of this publication reached the manifest
      deleteData();
      throw e;
    } catch (IOException | RuntimeException e) {
      if (!publishedDespite(e)) {
        throw e;
      }
      return; // the manifest names the file: what it replaced is left to gc, unknown now
    }
    cleanUpReplaced(replaced);
  }

  /**
   * Settles a manifest write that failed without a refusal (an interrupt, a lost answer, a store that stopped
   * answering): it may have been applied. A fresh read of the manifest decides: if it names this publication's data,
   * the file is published and that is the outcome; if not, the data object is deleted and the failure stands. If
   * the read fails too, the data object is kept (gc removes it if nothing names it): deleting an object a manifest
   * may name would lose the file.
   *
   * @return true if the file is published
   */
  private boolean publishedDespite(Exception failure) {
    Entry now;
    try {
      now = CleanUp.call(() -> manifests.get(parentId, parentPath, 0).manifest.entries.get(name));
    } catch (IOException | RuntimeException readFailure) {
      failure.addSuppressed(readFailure);
      return false;
    }
    if (now != null && dataKey.equals(now.data)) {
      LOG.info("{} is published: its manifest write failed ({}), and the manifest names it", path,
          failure.toString());
      return true;
    }
    deleteData();
    return false;
  }

  /** Deletes this publication's data object, which no manifest names. */
  private void deleteData() {
    Garbage.delete(store, dataKey, "unpublished data of " + path);
  }

  /** The entry the file replaces (null: none), or a failure when it may not. */
  private Entry existing(DirManifest m) throws FileAlreadyExistsException {
    Entry cur = m.entries.get(name);
    if (cur != null && (cur.isDir() || !overwrite)) {
      throw new FileAlreadyExistsException(path + (cur.isDir() ? " is a directory" : " already exists"));
    }
    return cur;
  }

  private void cleanUpReplaced(Entry replaced) {
    if (replaced != null && !replaced.isInline()) {
      Garbage.delete(store, replaced.data, "replaced data of " + path);
    }
  }

  private byte[] read(Payload bytes) throws IOException {
    try (InputStream in = bytes.open()) {
      return in.readAllBytes();
    }
  }

  @Override
  public String toString() {
    return path + " -> " + store.pathOf(dataKey);
  }
}
