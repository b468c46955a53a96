package io.objectcommit.readcache;

import io.objectcommit.readcache.impl.CacheDirectory;
import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.PathIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JVM's use of a read cache directory: opens {@link CachingInputStream}s whose blocks come from the directory
 * when cached there and otherwise from the store, by a ranged GET pinned to the object's ETag ({@code If-Match}),
 * after which they are cached for every JVM of the user on the host.
 *
 * <p>Never stale: a block is looked up by the object's identity (bucket, key, ETag, length), so a replaced object's
 * blocks are never served for the new object; and a block fetched for an identity is the bytes of that identity or
 * nothing ({@link io.objectcommit.store.ObjectChangedException} once the object was replaced). Thread-safe.
 */
public final class ReadCache {

  private static final Logger LOG = LoggerFactory.getLogger(ReadCache.class);

  private final ReadCacheOptions options;
  private final ReadCacheStatistics statistics = new ReadCacheStatistics();
  private final CacheDirectory directory;
  private final AtomicBoolean writeFailureLogged = new AtomicBoolean();
  /**
   * Identities confirmed by a HEAD, by path ({@code bucket/key}), with when: reused by {@link #open(ObjectStore,
   * String)} for {@link ReadCacheOptions#revalidateAfterMs()} (unused when that is 0). Forgotten when a read finds
   * the object replaced or gone.
   */
  private final ConcurrentHashMap<String, Confirmed> confirmed = new ConcurrentHashMap<>();
  /**
   * The threads that fetch blocks ahead of the streams' readers ({@link ReadCacheConstants#FETCH_THREADS}, daemons
   * that end after 30 s idle, so that a cache nobody reads holds none).
   */
  private final ThreadPoolExecutor fetchers;
  /** The blocks being fetched by some thread of this JVM now (see {@link #block}). */
  private final ConcurrentHashMap<BlockKey, CompletableFuture<byte[]>> inFlight = new ConcurrentHashMap<>();

  /**
   * The JVM's caches, one per directory and settings ({@link #shared}): Hadoop makes file systems by reflection, one
   * per bucket and user, yet one executor's tasks must share one estimate of the directory's size and one set of
   * statistics. Never emptied: a cache holds no open file, only counters and its directory's path.
   */
  private static final ConcurrentHashMap<String, ReadCache> SHARED = new ConcurrentHashMap<>();

  private ReadCache(ReadCacheOptions options) throws IOException {
    this.options = options;
    this.directory = CacheDirectory.open(options.dir(), options.dirKey(), options.blockSize(), options.maxSize(),
        statistics);
    AtomicInteger threads = new AtomicInteger();
    this.fetchers = new ThreadPoolExecutor(ReadCacheConstants.FETCH_THREADS, ReadCacheConstants.FETCH_THREADS, 30,
        TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
          Thread t = new Thread(r, "objectcommit-read-cache-fetch-" + threads.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    this.fetchers.allowCoreThreadTimeOut(true);
  }

  /**
   * Opens the cache directory of {@code options}, creating it when missing.
   *
   * @throws CacheDirectoryException if the directory is not this user's alone
   */
  public static ReadCache open(ReadCacheOptions options) throws IOException {
    return new ReadCache(options);
  }

  /** The JVM's cache of {@code options}' directory (opened on first use; the same object for the same settings). */
  public static ReadCache shared(ReadCacheOptions options) throws IOException {
    String key = options.dir() + "|" + options.blockSize() + "|" + options.maxSize() + "|"
        + options.revalidateAfterMs() + "|" + options.readAhead();
    ReadCache cache = SHARED.get(key);
    if (cache == null) {
      synchronized (SHARED) {
        cache = SHARED.get(key);
        if (cache == null) {
          cache = open(options);
          SHARED.put(key, cache);
        }
      }
    }
    return cache;
  }

  /**
   * What {@code options}' cache directory holds now, from disk alone (for {@code objectcommit cache stats}): read
   * only, it creates, evicts and sweeps nothing. Counters of running JVMs are not on disk.
   *
   * @throws CacheDirectoryException if the directory is not this user's alone
   */
  public static CacheContents contents(ReadCacheOptions options) throws IOException {
    return CacheDirectory.contents(options.dir(), options.dirKey());
  }

  /**
   * Deletes every block of {@code options}' cache directory (for {@code objectcommit cache clear}) and returns
   * what was deleted. Safe while other JVMs read and fill blocks: no reader ever gets part of a block (it reads a
   * file it holds open, or finds none and fetches the block again), and fills in flight complete.
   *
   * @throws CacheDirectoryException if the directory is not this user's alone
   */
  public static CacheContents clear(ReadCacheOptions options) throws IOException {
    return CacheDirectory.clear(options.dir(), options.dirKey());
  }

  public ReadCacheOptions options() {
    return options;
  }

  public ReadCacheStatistics statistics() {
    return statistics;
  }

  /** This JVM's estimate of the directory's size in bytes. */
  public long estimatedSize() {
    return directory.estimatedSize();
  }

  /** Scans the directory now: its size, stale temporary files, eviction when over the bound. */
  public void scan() throws IOException {
    directory.scan();
  }

  /**
   * A stream over the object at {@code key} as it is now: one HEAD fixes its identity, and every block read through
   * the stream belongs to that identity.
   *
   * @throws FileNotFoundException if there is no such object
   */
  public CachingInputStream open(ObjectStore store, String key) throws IOException {
    long window = options.revalidateAfterMs();
    String path = store.bucket() + "/" + key;
    if (window > 0) {
      Confirmed c = confirmed.get(path);
      if (c != null && System.currentTimeMillis() - c.atMillis < window) {
        return open(store, c.identity);
      }
    }
    ObjectIdentity identity = head(store, key);
    if (window > 0) {
      if (confirmed.size() >= ReadCacheConstants.REMEMBERED_IDENTITIES_MAX) {
        confirmed.clear(); // a bound on memory; forgetting only costs HEADs
      }
      confirmed.put(path, new Confirmed(identity, System.currentTimeMillis()));
    }
    return open(store, identity);
  }

  private static ObjectIdentity head(ObjectStore store, String key) throws IOException {
    Optional<ObjectInfo> info = store.head(key);
    if (info.isEmpty()) {
      throw new FileNotFoundException(store.pathOf(key) + ": no such object to read");
    }
    if (info.get().etag() == null || info.get().etag().isEmpty()) {
      throw new PathIOException(store.pathOf(key), "open through the read cache: the store answered no ETag, so the"
          + " object's identity cannot be fixed");
    }
    return ObjectIdentity.of(store.bucket(), info.get());
  }

  /**
   * A stream over a known identity (from a listing or a file status the caller holds): no request at open. When the
   * object has meanwhile been replaced, the first block that is not cached fails with
   * {@link io.objectcommit.store.ObjectChangedException}.
   */
  public CachingInputStream open(ObjectStore store, ObjectIdentity identity) {
    if (!identity.bucket().equals(store.bucket())) {
      throw new IllegalArgumentException(identity + " is not in the store's bucket " + store.bucket());
    }
    return new CachingInputStream(this, store, identity);
  }

  /** Block {@code index} of an identity fetched on a fetch thread (see {@link #block}). */
  Future<Block> blockAhead(ObjectStore store, ObjectIdentity id, long index) {
    return fetchers.submit(() -> block(store, id, index));
  }

  /** Block {@code index} of an identity: from the directory, else fetched (pinned to the ETag) and cached. */
  Block block(ObjectStore store, ObjectIdentity id, long index) throws IOException {
    long start = index * options.blockSize();
    int length = (int) Math.min(options.blockSize(), id.length() - start);
    Optional<byte[]> cached = directory.read(id, index, length);
    if (cached.isPresent()) {
      statistics.hit(length);
      return new Block(cached.get(), true);
    }
    // One fetch per block in this JVM: a thread that needs a block another thread is fetching (the tasks of an
    // executor reading one file's footer at once) waits for that fetch instead of sending its own GET.
    BlockKey key = new BlockKey(id, index);
    CompletableFuture<byte[]> mine = new CompletableFuture<>();
    CompletableFuture<byte[]> theirs = inFlight.putIfAbsent(key, mine);
    if (theirs != null) {
      byte[] data = awaitOther(theirs, id);
      statistics.hit(length); // no GET sent for it
      return new Block(data, true);
    }
    try {
      byte[] data = fetch(store, id, index, start, length);
      mine.complete(data);
      return new Block(data, false);
    } catch (IOException | RuntimeException | Error e) {
      mine.completeExceptionally(e);
      throw e;
    } finally {
      inFlight.remove(key, mine);
    }
  }

  private static byte[] awaitOther(CompletableFuture<byte[]> fetch, ObjectIdentity id) throws IOException {
    try {
      return fetch.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException ie = new InterruptedIOException("interrupted reading " + id.path());
      ie.initCause(e);
      throw ie;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        throw (IOException) cause; // the same identity: the same answer (ObjectChangedException, not found)
      }
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      throw new IOException("fetch of a block of " + id.path() + " failed", cause);
    }
  }

  /** Fetches a block (one ranged GET pinned to the ETag), writing it to the directory as it arrives. */
  private byte[] fetch(ObjectStore store, ObjectIdentity id, long index, long start, int length) throws IOException {
    // The block is written to its temporary file as the GET streams it (the disk write overlaps the transfer);
    // only a whole, checked block is renamed into place.
    CacheDirectory.Fill fill = startFill(id, index, length);
    byte[] data = new byte[length];
    int n = 0;
    try (InputStream in = store.open(id.key(), start, start + length, id.etag())) {
      while (n < length) {
        int r = in.read(data, n, length - n);
        if (r < 0) {
          break;
        }
        if (fill != null) {
          try {
            fill.write(data, n, r);
          } catch (IOException e) {
            fill = writeFailed(fill, id, index, e);
          }
        }
        n += r;
      }
    } catch (ObjectChangedException | FileNotFoundException e) {
      // replaced or deleted: the next open checks the identity again, whatever revalidate-after says
      confirmed.remove(id.bucket() + "/" + id.key(), new Confirmed(id, 0));
      abandon(fill);
      throw e;
    } catch (IOException | RuntimeException e) {
      abandon(fill);
      throw e;
    }
    if (n != length) {
      abandon(fill);
      throw new PathIOException(id.path(), "read block " + index + " through the read cache: the store returned "
          + n + " of " + length + " bytes of ETag " + id.etag());
    }
    statistics.miss(length);
    if (fill != null) {
      try {
        fill.commit();
      } catch (IOException e) {
        writeFailed(fill, id, index, e);
      }
    }
    return data;
  }

  /** A block of an identity, the key of {@link #inFlight}. */
  private static final class BlockKey {
    final ObjectIdentity id;
    final long index;

    BlockKey(ObjectIdentity id, long index) {
      this.id = id;
      this.index = index;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof BlockKey && ((BlockKey) o).index == index && ((BlockKey) o).id.equals(id);
    }

    @Override
    public int hashCode() {
      return id.hashCode() * 31 + Long.hashCode(index);
    }
  }

  /** A block's bytes and where they came from. */
  static final class Block {
    final byte[] data;
    final boolean fromCache;

    Block(byte[] data, boolean fromCache) {
      this.data = data;
      this.fromCache = fromCache;
    }
  }

  /** A fill of the block, or null when the directory cannot take it (the read goes on uncached). */
  private CacheDirectory.Fill startFill(ObjectIdentity id, long index, int length) {
    try {
      return directory.startFill(id, index, length);
    } catch (IOException e) {
      return writeFailed(null, id, index, e);
    }
  }

  /** A failed cache write never fails the read: counted, warned about once, the fill abandoned; returns null. */
  private CacheDirectory.Fill writeFailed(CacheDirectory.Fill fill, ObjectIdentity id, long index, IOException e) {
    abandon(fill);
    statistics.writeFailure();
    if (writeFailureLogged.compareAndSet(false, true)) {
      LOG.warn("Read cache {}: cannot write block {} of {} ({}); reading on without caching what fails",
          options.dir(), index, id, e.toString());
    }
    return null;
  }

  private static void abandon(CacheDirectory.Fill fill) {
    if (fill != null) {
      try {
        fill.close();
      } catch (IOException e) {
        LOG.debug("Read cache: could not remove an abandoned fill's temporary file: {}", e.toString());
      }
    }
  }

  /** An identity and when a HEAD confirmed it; equal by identity alone (to forget exactly the one that failed). */
  private static final class Confirmed {
    final ObjectIdentity identity;
    final long atMillis;

    Confirmed(ObjectIdentity identity, long atMillis) {
      this.identity = identity;
      this.atMillis = atMillis;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Confirmed && ((Confirmed) o).identity.equals(identity);
    }

    @Override
    public int hashCode() {
      return identity.hashCode();
    }
  }
}
