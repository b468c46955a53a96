package io.objectcommit.checkpoint.impl;

import io.objectcommit.checkpoint.files.DirManifest;
import io.objectcommit.fs.ObjectChangedException;
import io.objectcommit.fs.ObjectInfo;
import io.objectcommit.fs.ObjectStore;
import io.objectcommit.fs.Payload;
import io.objectcommit.fs.StoredBytes;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.PathIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads, caches and changes directory manifests. A read serves the cached copy while it is younger than the
 * caller's limit, else revalidates it with one conditional GET (no body when unchanged). A change is applied to
 * the cached copy and written with a compare-and-swap on its ETag ({@code If-None-Match: *} when the directory has
 * no manifest object yet); on a conflict the manifest is read again and the change re-applied. Thread-safe.
 */
final class ManifestStore {

  private static final Logger LOG = LoggerFactory.getLogger(ManifestStore.class);

  /** A manifest, the ETag of the object it was read from (null: no object yet), and when it was last validated. */
  static final class Cached {
    final DirManifest manifest;
    final String etag;
    final long validatedAt;

    Cached(DirManifest manifest, String etag, long validatedAt) {
      this.manifest = manifest;
      this.etag = etag;
      this.validatedAt = validatedAt;
    }
  }

  /**
   * A change of one manifest, applied to an editable copy; returns the result for the caller. A change that
   * leaves the entries as they were writes nothing.
   */
  @FunctionalInterface
  interface Change<R> {
    R apply(DirManifest editable) throws IOException;
  }

  private final ObjectStore store;
  private final String prefix;
  private final int casAttempts;
  private final LongSupplier clock;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();

  ManifestStore(ObjectStore store, String prefix, int casAttempts, LongSupplier clock) {
    this.store = store;
    this.prefix = prefix;
    this.casAttempts = casAttempts;
    this.clock = clock;
  }

  String manifestKey(String dirId) {
    return prefix + ".ckpt/dirs/" + dirId + ".json";
  }

  String manifestsPrefix() {
    return prefix + ".ckpt/dirs/";
  }

  /**
   * The manifest of directory {@code dirId}, at most {@code maxAgeMs} old (0: revalidated now). A directory
   * without a manifest object is empty (manifests are written when a directory first gets an entry).
   *
   * @param createdAs the directory's logical path, recorded in a manifest created later
   */
  Cached get(String dirId, String createdAs, long maxAgeMs) throws IOException {
    Cached c = cache.get(dirId);
    long now = clock.getAsLong();
    if (c != null && maxAgeMs > 0 && now - c.validatedAt < maxAgeMs) {
      return c;
    }
    String key = manifestKey(dirId);
    try {
      if (c != null && c.etag != null) {
        Optional<StoredBytes> changed = store.getBytesIfChanged(key, c.etag);
        if (changed.isEmpty()) {
          Cached fresh = new Cached(c.manifest, c.etag, now);
          cache.put(dirId, fresh);
          return fresh;
        }
        return remember(dirId, changed.get(), now);
      }
      return remember(dirId, store.getBytes(key), now);
    } catch (FileNotFoundException noManifestYet) {
      Cached empty = new Cached(DirManifest.empty(dirId, createdAs), null, now);
      cache.put(dirId, empty);
      return empty;
    }
  }

  private Cached remember(String dirId, StoredBytes b, long now) throws IOException {
    DirManifest m = DirManifest.CODEC.fromBytes(b.data(), store.pathOf(manifestKey(dirId)));
    if (!dirId.equals(m.dirId)) {
      throw new io.objectcommit.fs.files.CorruptRecordException(store.pathOf(manifestKey(dirId)),
          "manifest names directory " + m.dirId + ", expected " + dirId, null);
    }
    Cached c = new Cached(m, b.info().etag(), now);
    cache.put(dirId, c);
    return c;
  }

  /**
   * Applies {@code change} to the directory's manifest with compare-and-swap, re-reading and re-applying on a
   * conflict. The change must be a function of the manifest it is given (it may run several times).
   */
  <R> R update(String dirId, String createdAs, Change<R> change) throws IOException {
    for (int attempt = 0; attempt < casAttempts; attempt++) {
      // First attempt: the cached copy (the CAS checks it is current); after a conflict: a fresh read.
      Cached cur = get(dirId, createdAs, attempt == 0 ? Long.MAX_VALUE : 0);
      DirManifest next = cur.manifest.copy();
      R result = change.apply(next);
      if (next.entries.equals(cur.manifest.entries)) {
        return result; // nothing to write
      }
      Payload body = Payload.of(DirManifest.CODEC.toBytes(next));
      String key = manifestKey(dirId);
      try {
        ObjectInfo written = cur.etag == null ? store.createExclusive(key, body) : store.replaceIfMatch(key, body,
            cur.etag);
        cache.put(dirId, new Cached(next, written.etag(), clock.getAsLong()));
        return result;
      } catch (ObjectChangedException | FileAlreadyExistsException | FileNotFoundException conflict) {
        LOG.debug("Manifest {} changed under us (attempt {}): {}", key, attempt + 1, conflict.toString());
        cache.remove(dirId);
      }
    }
    throw new PathIOException(store.pathOf(manifestKey(dirId)), "gave up after " + casAttempts
        + " conflicting concurrent changes of directory " + createdAs);
  }

  /** Forgets a directory's cached manifest (after it was deleted). */
  void forget(String dirId) {
    cache.remove(dirId);
  }

  ObjectStore store() {
    return store;
  }
}
