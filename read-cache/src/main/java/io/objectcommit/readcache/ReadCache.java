package io.objectcommit.readcache;

import io.objectcommit.readcache.impl.ApplicationRecords;
import io.objectcommit.readcache.impl.BlockView;
import io.objectcommit.readcache.impl.CacheDirectory;
import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.spark.SparkRuntime;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
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
  /** The Spark of this JVM, for the application and the task a stream reads for. */
  private final SparkRuntime spark;
  /** This JVM's statistics per application, and their records in the directory. */
  private final ApplicationRecords applications;
  /** The Spark tasks reading through this cache now, by task attempt id (see {@link TaskReads}). */
  private final ConcurrentHashMap<Long, TaskReads> tasks = new ConcurrentHashMap<>();
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

  private ReadCache(ReadCacheOptions options, SparkRuntime spark, long recordIntervalMs) throws IOException {
    this.options = options;
    this.spark = spark;
    this.applications = ApplicationRecords.open(options.dir(), options.dirKey(), statistics, spark::applicationId,
        spark::applicationName, ApplicationRecords.jvmId(), recordIntervalMs);
    this.directory = CacheDirectory.open(options.dir(), options.dirKey(), options.blockSize(), options.maxSize(),
        applications::current);
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
    return new ReadCache(options, SparkRuntime.jvm(), ReadCacheConstants.RECORD_INTERVAL_MS);
  }

  /**
   * A cache that reads the application and the task from {@code spark} and writes its records at most every
   * {@code recordIntervalMs} (tests give stand-ins, and 0).
   */
  static ReadCache open(ReadCacheOptions options, SparkRuntime spark, long recordIntervalMs) throws IOException {
    return new ReadCache(options, spark, recordIntervalMs);
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
          ReadCache c = cache;
          Runtime.getRuntime().addShutdownHook(new Thread(c::writeStatistics, "objectcommit-read-cache-statistics"));
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

  /** What this JVM read through the directory, every application together. */
  public ReadCacheStatistics statistics() {
    return statistics;
  }

  /**
   * What this JVM read for the application of the current thread (Spark's {@code spark.app.id}, else the JVM's
   * {@code jvm-<pid>}): the counts its record in the directory holds ({@link #usage}).
   */
  public ReadCacheStatistics applicationStatistics() {
    return applications.current();
  }

  /**
   * Writes this JVM's application records now (else they are written at most every
   * {@link ReadCacheConstants#RECORD_INTERVAL_MS} ms while streams close, and when the file system closes or the
   * JVM exits).
   */
  public void writeStatistics() {
    applications.write();
  }

  /** Writes the application records if the last write is old enough (a stream closed, a task ended). */
  void maybeWriteStatistics() {
    applications.maybeWrite();
  }

  /**
   * What every application read through {@code options}' cache directory on this host, from the records of its
   * JVMs (for {@code objectcommit cache stats}): read only.
   *
   * @throws CacheDirectoryException if the directory is not this user's alone
   */
  public static CacheUsage usage(ReadCacheOptions options) throws IOException {
    if (!Files.exists(options.dir())) {
      return new CacheUsage(List.of(), List.of());
    }
    ApplicationRecords.Loaded loaded = ApplicationRecords.load(options.dir(), options.dirKey());
    return new CacheUsage(loaded.records(), loaded.unreadable());
  }

  /**
   * The reads of the Spark task on the current thread, registered on first use with a completion listener that logs
   * them in one line; null outside a task (or where the listener cannot be registered).
   */
  TaskReads currentTask() {
    OptionalLong id = spark.taskAttemptId();
    if (id.isEmpty()) {
      return null;
    }
    TaskReads t = tasks.get(id.getAsLong());
    if (t != null) {
      return t;
    }
    TaskReads fresh = new TaskReads(spark.taskDescription().orElse("task " + id.getAsLong()),
        spark.applicationId().orElse(null));
    t = tasks.putIfAbsent(id.getAsLong(), fresh);
    if (t != null) {
      return t;
    }
    long taskId = id.getAsLong();
    if (!spark.onTaskCompletion(() -> {
      tasks.remove(taskId);
      fresh.log();
      maybeWriteStatistics();
    })) {
      tasks.remove(taskId);
      return null;
    }
    return fresh;
  }

  /** The tasks whose reads are being counted now (tests). */
  int tasksInFlight() {
    return tasks.size();
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
  Future<Block> blockAhead(ObjectStore store, ObjectIdentity id, long index, ReadCacheStatistics counts) {
    return fetchers.submit(() -> block(store, id, index, counts));
  }

  /**
   * Block {@code index} of an identity: from the directory, else fetched (pinned to the ETag) and cached; counted in
   * {@code counts} (the statistics of the reading stream's application).
   */
  Block block(ObjectStore store, ObjectIdentity id, long index, ReadCacheStatistics counts) throws IOException {
    long start = index * options.blockSize();
    int length = (int) Math.min(options.blockSize(), id.length() - start);
    Optional<BlockView> cached = directory.read(id, index, length);
    if (cached.isPresent()) {
      counts.hit(length);
      return new Block(cached.get(), true);
    }
    // One fetch per block in this JVM: a thread that needs a block another thread is fetching (the tasks of an
    // executor reading one file's footer at once) waits for that fetch instead of sending its own GET.
    BlockKey key = new BlockKey(id, index);
    CompletableFuture<byte[]> mine = new CompletableFuture<>();
    CompletableFuture<byte[]> theirs = inFlight.putIfAbsent(key, mine);
    if (theirs != null) {
      byte[] data = awaitOther(theirs, id);
      counts.hit(length); // no GET sent for it
      return new Block(BlockView.of(data), true);
    }
    try {
      byte[] data = fetch(store, id, index, start, length, counts);
      mine.complete(data);
      return new Block(BlockView.of(data), false);
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
  private byte[] fetch(ObjectStore store, ObjectIdentity id, long index, long start, int length,
      ReadCacheStatistics counts) throws IOException {
    // The block is written to its temporary file as the GET streams it (the disk write overlaps the transfer);
    // only a whole, checked block is renamed into place.
    CacheDirectory.Fill fill = startFill(id, index, length, counts);
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
            fill = writeFailed(fill, id, index, e, counts);
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
    counts.miss(length);
    if (fill != null) {
      try {
        fill.commit();
      } catch (IOException e) {
        writeFailed(fill, id, index, e, counts);
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
    final BlockView data;
    final boolean fromCache;

    Block(BlockView data, boolean fromCache) {
      this.data = data;
      this.fromCache = fromCache;
    }
  }

  /** A fill of the block, or null when the directory cannot take it (the read goes on uncached). */
  private CacheDirectory.Fill startFill(ObjectIdentity id, long index, int length, ReadCacheStatistics counts) {
    try {
      return directory.startFill(id, index, length);
    } catch (IOException e) {
      return writeFailed(null, id, index, e, counts);
    }
  }

  /** A failed cache write never fails the read: counted, warned about once, the fill abandoned; returns null. */
  private CacheDirectory.Fill writeFailed(CacheDirectory.Fill fill, ObjectIdentity id, long index, IOException e,
      ReadCacheStatistics counts) {
    abandon(fill);
    counts.writeFailure();
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
