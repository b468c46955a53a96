package io.objectcommit.checkpoint.impl;

import io.objectcommit.checkpoint.files.DirManifest;
import io.objectcommit.store.CompareAndSwap;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoredBytes;
import io.objectcommit.store.files.CorruptRecordException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.PathIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads, caches and changes directory manifests. A read serves the cached copy while it is younger than the
 * caller's limit, else revalidates it with one conditional GET (no body when unchanged). A change is applied to
 * the cached copy and written with a compare-and-swap on its ETag ({@code If-None-Match: *} when the directory has
 * no manifest object yet) by the one compare-and-swap loop ({@link CompareAndSwap}); on a conflict the manifest is
 * read again and the change re-applied. Thread-safe.
 *
 * <p>One JVM's changes of one manifest take turns ({@link #update}): each starts from the manifest and ETag that
 * the previous one wrote, so threads of one process never make each other's conditional writes fail. Without
 * this, two files closed at once in one directory (Spark 4.1's state store writes each state file and its
 * {@code .crc} beside it in parallel) both wrote from the same cached ETag, and one of them paid a refused PUT and a
 * fresh GET. The compare-and-swap still guards against other processes.
 */
final class ManifestStore {

  private static final Logger LOG = LoggerFactory.getLogger(ManifestStore.class);

  /**
   * A manifest, the ETag of the object it was read from (null: no object yet), when it was last validated, and the
   * number of the request that read, confirmed or wrote it ({@link #requestsSent()}).
   */
  static final class Cached {
    final DirManifest manifest;
    final String etag;
    final long validatedAt;
    final long request;

    Cached(DirManifest manifest, String etag, long validatedAt, long request) {
      this.manifest = manifest;
      this.etag = etag;
      this.validatedAt = validatedAt;
      this.request = request;
    }

    /** Whether the request behind this copy was sent after {@code requestsSent} requests: a read since then. */
    boolean sentAfter(long requestsSent) {
      return request > requestsSent;
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
  private final CompareAndSwap cas;
  private final LongSupplier clock;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();
  /** Numbers the manifest requests in the order they are sent (1, 2, ...). */
  private final AtomicLong requests = new AtomicLong();
  /** One lock per directory changed by this JVM (a handful per checkpoint directory: kept, as small as the ids). */
  private final Map<String, ReentrantLock> updateLocks = new ConcurrentHashMap<>();
  private final int missingReadAttempts;
  private final Sleeper sleeper;

  /** Waits between attempts; replaced in tests. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(long ms) throws InterruptedException;
  }

  ManifestStore(ObjectStore store, String prefix, int casAttempts, int missingReadAttempts, LongSupplier clock,
      Sleeper sleeper) {
    this.store = store;
    this.prefix = prefix;
    this.cas = new CompareAndSwap(casAttempts, sleeper::sleep);
    this.missingReadAttempts = missingReadAttempts;
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /**
   * How many manifest requests this store has sent so far. A copy whose request was sent after this count ({@link
   * Cached#sentAfter}) is as fresh as a read started now: no write completed before now is missing from it.
   */
  long requestsSent() {
    return requests.get();
  }

  String manifestKey(String dirId) {
    return prefix + ".ckpt/dirs/" + dirId + ".json";
  }

  String manifestsPrefix() {
    return prefix + ".ckpt/dirs/";
  }

  /**
   * The manifest of directory {@code dirId}, at most {@code maxAgeMs} old (0: revalidated now).
   *
   * <p>Every directory's manifest is written before anything refers to it, so a manifest that reads as missing
   * is a store that lags behind a write (eventual consistency, negative caching of an earlier 404): the read is
   * retried with backoff, and never taken for an empty directory.
   *
   * @param createdAs the directory's logical path, for messages
   */
  Cached get(String dirId, String createdAs, long maxAgeMs) throws IOException {
    Cached c = cache.get(dirId);
    long now = clock.getAsLong();
    if (c != null && maxAgeMs > 0 && now - c.validatedAt < maxAgeMs) {
      return c;
    }
    String key = manifestKey(dirId);
    for (int attempt = 0; ; attempt++) {
      long request = requests.incrementAndGet();
      try {
        if (c != null && c.etag != null) {
          Optional<StoredBytes> changed = store.getBytesIfChanged(key, c.etag);
          if (changed.isEmpty()) {
            Cached fresh = new Cached(c.manifest, c.etag, clock.getAsLong(), request);
            cache.put(dirId, fresh);
            return fresh;
          }
          return remember(dirId, changed.get(), clock.getAsLong(), request);
        }
        return remember(dirId, store.getBytes(key), clock.getAsLong(), request);
      } catch (FileNotFoundException missing) {
        if (attempt + 1 >= missingReadAttempts) {
          throw new PathIOException(store.pathOf(key), "the manifest of directory " + createdAs + " is missing"
              + " after " + missingReadAttempts + " reads, although the directory is referenced: the store does not"
              + " show an object that was written (or the object was deleted behind objectcommit's back)");
        }
        LOG.debug("Manifest {} of {} not visible yet (attempt {}): waiting", key, createdAs, attempt + 1);
        pause(attempt);
      }
    }
  }

  /** Backoff between attempts: 50 ms doubling to 2 s. */
  private void pause(int attempt) throws IOException {
    try {
      sleeper.sleep(Math.min(2_000L, 50L << Math.min(attempt, 10)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for a manifest");
    }
  }

  /**
   * Writes the empty manifest of a new directory, before anything refers to it ({@code If-None-Match: *} on a
   * fresh id: it cannot exist). One PUT.
   */
  void createEmpty(String dirId, String createdAs) throws IOException {
    createEmpty(dirId, createdAs, Fence.NONE);
  }

  /**
   * {@link #createEmpty(String, String)} stamped with the fence's owner: a zombie that finds the new directory
   * through a listing read after it was made is refused at its first write into it.
   */
  void createEmpty(String dirId, String createdAs, Fence fence) throws IOException {
    DirManifest m = DirManifest.empty(dirId, createdAs);
    fence.stamp(m);
    long request = requests.incrementAndGet();
    ObjectInfo written = store.createExclusive(manifestKey(dirId), Payload.of(DirManifest.CODEC.toBytes(m)));
    cache.put(dirId, new Cached(m, written.etag(), clock.getAsLong(), request));
  }

  /**
   * Makes sure the root manifest exists without reading it first (a GET of a missing key can be negatively
   * cached by some stores): an exclusive PUT, refused when it exists. One request.
   */
  void ensureRoot() throws IOException {
    String root = store.pathOf(manifestKey(DirManifest.ROOT_ID));
    if (ROOTS_ENSURED.contains(root)) {
      return; // once per JVM and namespace
    }
    try {
      createEmpty(DirManifest.ROOT_ID, "/");
    } catch (FileAlreadyExistsException exists) {
      LOG.debug("Root manifest {} exists", root);
    }
    ROOTS_ENSURED.add(root);
  }

  /**
   * The root manifests this JVM has made sure of, by {@code s3://bucket/key}. JVM-wide on purpose: every file
   * system instance has a manifest store of its own (Hadoop caches one per authority and user, and
   * {@code FileContext}'s {@code CheckpointFs} and {@code FileSystem.newInstance} make more), and a root manifest,
   * once there, is never removed by the file system, so one exclusive PUT per JVM and namespace is enough whichever
   * instance sends it. (A test that replaces a bucket within one JVM uses a new bucket name.)
   */
  private static final Set<String> ROOTS_ENSURED = ConcurrentHashMap.newKeySet();

  private Cached remember(String dirId, StoredBytes b, long now, long request) throws IOException {
    DirManifest m = DirManifest.CODEC.fromBytes(b.data(), store.pathOf(manifestKey(dirId)));
    if (!dirId.equals(m.dirId)) {
      throw new CorruptRecordException(store.pathOf(manifestKey(dirId)),
          "manifest names directory " + m.dirId + ", expected " + dirId, null);
    }
    Cached c = new Cached(m, b.info().etag(), now, request);
    cache.put(dirId, c);
    return c;
  }

  /**
   * Applies {@code change} to the directory's manifest with compare-and-swap, re-reading and re-applying on a
   * conflict. The change must be a function of the manifest it is given (it may run several times).
   */
  <R> R update(String dirId, String createdAs, Change<R> change) throws IOException {
    return update(dirId, createdAs, Fence.NONE, change);
  }

  /**
   * {@link #update(String, String, Change)} by a fenced writer: each attempt first checks the manifest it starts
   * from against the fence ({@link CheckpointFencedException} when a newer owner wrote it: the change is not
   * applied, nothing is written), and the write carries the fence's owner stamp. The check costs no request: the
   * first attempt checks the cached copy, and a takeover since then changed the manifest's ETag, so the write is
   * refused and the next attempt checks the copy it reads afresh.
   */
  <R> R update(String dirId, String createdAs, Fence fence, Change<R> change) throws IOException {
    ReentrantLock lock = updateLocks.computeIfAbsent(dirId, id -> new ReentrantLock());
    try {
      lock.lockInterruptibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting to change the manifest of directory "
          + createdAs);
    }
    try {
      return casUpdate(dirId, createdAs, fence, change);
    } finally {
      lock.unlock();
    }
  }

  private <R> R casUpdate(String dirId, String createdAs, Fence fence, Change<R> change) throws IOException {
    String key = manifestKey(dirId);
    return cas.run(store.pathOf(key), "manifest of directory " + createdAs, attempt -> {
      if (attempt > 0) {
        cache.remove(dirId); // the cached copy was stale: read it fresh
      }
      // First attempt: the cached copy (the CAS checks it is current); after a conflict: a fresh read.
      Cached cur = get(dirId, createdAs, attempt == 0 ? Long.MAX_VALUE : 0);
      fence.check(cur.manifest, createdAs);
      DirManifest next = cur.manifest.copy();
      R result = change.apply(next);
      if (next.entries.equals(cur.manifest.entries)) {
        return result; // nothing to write
      }
      fence.stamp(next);
      Payload body = Payload.of(DirManifest.CODEC.toBytes(next));
      long request = requests.incrementAndGet();
      ObjectInfo written = CompareAndSwap.write(() -> cur.etag == null ? store.createExclusive(key, body)
          : store.replaceIfMatch(key, body, cur.etag));
      cache.put(dirId, new Cached(next, written.etag(), clock.getAsLong(), request));
      return result;
    });
  }

  /**
   * Raises the epoch recorded in the manifest of a checkpoint location's top directory: the first step of a
   * takeover. Compare-and-swap from the cached copy: a concurrent takeover makes the write fail, and the next
   * attempt raises the epoch that one wrote. One PUT when the cached copy is current.
   *
   * @param location the location's path (the directory {@code dirId})
   * @return the new owner stamp
   */
  DirManifest.Owner claim(String dirId, String location, String ownerId) throws IOException {
    String key = manifestKey(dirId);
    return lockedCas(dirId, location, "claim of " + location, attempt -> {
      Cached cur = get(dirId, location, attempt == 0 ? Long.MAX_VALUE : 0);
      DirManifest.Owner last = cur.manifest.owner;
      DirManifest.Owner mine = new DirManifest.Owner(location, last == null ? 1 : last.epoch + 1, ownerId);
      DirManifest next = cur.manifest.copy();
      next.owner = mine;
      write(dirId, key, cur, next);
      return mine;
    });
  }

  /**
   * Stamps a directory's manifest with a takeover's owner (the second step, for every directory under the
   * location), so that every ETag an older owner cached is stale. From the cached copy when there is one (the
   * compare-and-swap is the check), else one GET first.
   *
   * @return the manifest as stamped
   * @throws CheckpointFencedException if a still newer takeover stamped it first
   */
  DirManifest stamp(String dirId, String createdAs, Fence fence) throws IOException {
    String key = manifestKey(dirId);
    return lockedCas(dirId, createdAs, "stamp of " + createdAs, attempt -> {
      Cached cur = get(dirId, createdAs, attempt == 0 ? Long.MAX_VALUE : 0);
      fence.check(cur.manifest, createdAs);
      if (fence.owner().equals(cur.manifest.owner)) {
        return cur.manifest; // stamped already (a rerun)
      }
      DirManifest next = cur.manifest.copy();
      fence.stamp(next);
      write(dirId, key, cur, next);
      return next;
    });
  }

  private <R> R lockedCas(String dirId, String createdAs, String what, CompareAndSwap.Attempt<R> attempt)
      throws IOException {
    ReentrantLock lock = updateLocks.computeIfAbsent(dirId, id -> new ReentrantLock());
    try {
      lock.lockInterruptibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the " + what);
    }
    try {
      return cas.run(store.pathOf(manifestKey(dirId)), "manifest of directory " + createdAs, i -> {
        if (i > 0) {
          cache.remove(dirId);
        }
        return attempt.run(i);
      });
    } finally {
      lock.unlock();
    }
  }

  private void write(String dirId, String key, Cached cur, DirManifest next) throws IOException {
    Payload body = Payload.of(DirManifest.CODEC.toBytes(next));
    long request = requests.incrementAndGet();
    ObjectInfo written = CompareAndSwap.write(() -> cur.etag == null ? store.createExclusive(key, body)
        : store.replaceIfMatch(key, body, cur.etag));
    cache.put(dirId, new Cached(next, written.etag(), clock.getAsLong(), request));
  }

  /** Forgets a directory's cached manifest (after it was deleted). */
  void forget(String dirId) {
    cache.remove(dirId);
  }
}
