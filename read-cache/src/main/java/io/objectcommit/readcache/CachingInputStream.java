package io.objectcommit.readcache;

import io.objectcommit.readcache.impl.BlockView;
import io.objectcommit.store.ObjectStore;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A seekable stream over one object identity, read block by block through a {@link ReadCache}: a block is served
 * from the cache directory when there, else fetched with one ranged GET of the whole block pinned to the identity's
 * ETag. The identity is fixed when the stream is opened: if the object is replaced while the stream is open,
 * blocks already cached still serve the old object's bytes, and the first block that is not fails with
 * {@link io.objectcommit.store.ObjectChangedException}; a stream never returns bytes of two objects.
 *
 * <p><b>Read-ahead</b> ({@link ReadCacheConstants#READ_AHEAD} blocks at once, on the cache's fetch threads): a read
 * that spans several blocks fetches them in parallel; when the stream knows where its task's split ends
 * ({@link #setSplitEnd}), a read also fetches the blocks after it up to the block holding the split's last byte,
 * never further. A block fetched ahead and never read is still cached for whoever reads it next.
 *
 * <p><b>Statistics</b>: what this stream read from the cache and from the store, as Hadoop {@link IOStatistics}
 * ({@link #getIOStatistics()}, names in {@link StreamStatistics}), in its application's statistics
 * ({@link ReadCache#applicationStatistics()}), and in one INFO line: its Spark task's when it was opened in one,
 * else its own when it is closed.
 *
 * <p>Positioned reads do not move the stream's position and never read ahead of what they ask for. Not for
 * concurrent use beyond what Hadoop's {@code FSInputStream} contract asks (its methods are synchronized).
 */
public final class CachingInputStream extends FSInputStream implements IOStatisticsSource {

  private static final Logger LOG = LoggerFactory.getLogger(CachingInputStream.class);

  private final ReadCache cache;
  private final ObjectStore store;
  private final ObjectIdentity identity;
  private final int blockSize;
  private final int readAhead;
  private final long lastBlock;
  private final StreamStatistics stats = new StreamStatistics();
  /** The statistics of the application this stream reads for, which count its blocks. */
  private final ReadCacheStatistics counts;
  /** The Spark task that opened the stream (its reads are logged in the task's line); null outside a task. */
  private final TaskReads task;
  /** Blocks being fetched (or fetched) ahead of the reader, by index. */
  private final TreeMap<Long, Future<ReadCache.Block>> ahead = new TreeMap<>();
  /** The last block speculative read-ahead may fetch: the one holding the split's last byte (-1: no split known). */
  private long splitLastBlock = -1;
  private long pos;
  /** The current block (released when the stream moves to another one or closes). */
  private BlockView block;
  private long blockIndex = -1;
  private boolean closed;

  CachingInputStream(ReadCache cache, ObjectStore store, ObjectIdentity identity) {
    this.cache = cache;
    this.store = store;
    this.identity = identity;
    this.blockSize = cache.options().blockSize();
    this.readAhead = cache.options().readAhead();
    this.lastBlock = identity.length() == 0 ? -1 : (identity.length() - 1) / blockSize;
    this.counts = cache.applicationStatistics();
    this.task = cache.currentTask();
    if (task != null) {
      task.add(this);
    }
  }

  /** The identity every byte of this stream belongs to. */
  public ObjectIdentity identity() {
    return identity;
  }

  /**
   * Where the reader's split ends (the offset after its last byte, as Hadoop's
   * {@link ReadCacheConstants#OPENFILE_SPLIT_END}): reads then fetch ahead up to the block holding byte
   * {@code end - 1}. Without it a stream fetches only what is asked for.
   */
  public synchronized void setSplitEnd(long end) {
    splitLastBlock = end <= 0 ? -1 : Math.min(lastBlock, (end - 1) / blockSize);
  }

  @Override
  public synchronized int read() throws IOException {
    checkOpen();
    if (pos >= identity.length()) {
      return -1;
    }
    int v = current(pos, pos + 1).get((int) (pos - blockIndex * blockSize));
    pos++;
    stats.bytesRead++;
    return v;
  }

  @Override
  public synchronized int read(byte[] buf, int off, int len) throws IOException {
    checkOpen();
    java.util.Objects.checkFromIndexSize(off, len, buf.length);
    if (len == 0) {
      return 0;
    }
    if (pos >= identity.length()) {
      return -1;
    }
    long end = Math.min(identity.length(), pos + len);
    int n = 0;
    while (pos < end) {
      BlockView b = current(pos, end);
      int at = (int) (pos - blockIndex * blockSize);
      int k = (int) Math.min(end - pos, b.length() - at);
      b.copy(at, buf, off + n, k);
      n += k;
      pos += k;
    }
    stats.bytesRead += n;
    return n;
  }

  @Override
  public synchronized int read(long position, byte[] buf, int off, int len) throws IOException {
    checkOpen();
    validatePositionedReadArgs(position, buf, off, len);
    if (len == 0) {
      return 0;
    }
    if (position >= identity.length()) {
      return -1;
    }
    long end = Math.min(identity.length(), position + len);
    int n = 0;
    long p = position;
    while (p < end) {
      long index = p / blockSize;
      BlockView b;
      if (index == blockIndex) {
        b = block;
      } else {
        fetchAhead(index, (end - 1) / blockSize); // the blocks this read spans, never beyond
        b = take(index);
      }
      int at = (int) (p - index * blockSize);
      int k = (int) Math.min(end - p, b.length() - at);
      b.copy(at, buf, off + n, k);
      if (b != block) {
        b.release(); // taken for this read only: the stream's position and current block stay
      }
      n += k;
      p += k;
    }
    stats.bytesRead += n;
    return n;
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    checkOpen();
    if (target < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + " " + target + " in " + identity.path());
    }
    if (target > identity.length()) {
      throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF + " " + target + " in " + identity);
    }
    pos = target;
  }

  @Override
  public synchronized long skip(long n) throws IOException {
    checkOpen();
    if (n <= 0) {
      return 0;
    }
    long k = Math.min(n, identity.length() - pos);
    pos += k;
    return k;
  }

  @Override
  public synchronized long getPos() throws IOException {
    checkOpen();
    return pos;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }

  /** The bytes of the current block after the position (what can be read with no request and no disk read). */
  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    if (block == null || pos / blockSize != blockIndex) {
      return 0;
    }
    return (int) (blockIndex * blockSize + block.length() - pos);
  }

  /**
   * Closes the stream and logs what it read, when it read anything: at DEBUG in a Spark task, whose completion
   * logs one INFO line for all its streams ({@link TaskReads}), else at INFO. Blocks still being fetched ahead
   * complete on their threads and are cached; they are counted as unused read-ahead.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (block != null) {
      block.release();
      block = null;
    }
    stats.readAheadUnused += ahead.size();
    ahead.values().forEach(CachingInputStream::discard);
    ahead.clear();
    if (stats.bytesRead > 0 || stats.misses > 0 || stats.hits > 0) {
      String line = "Read cache: {} read {} bytes: {} bytes from the cache ({} blocks), {} from S3 ({} GETs),"
          + " requests saved {}; read ahead {} blocks ({} unused)";
      Object[] args = {identity, stats.bytesRead, stats.bytesFromCache, stats.hits, stats.bytesFromStore,
          stats.misses, stats.hits, stats.readAheadUsed, stats.readAheadUnused};
      if (task == null) {
        LOG.info(line, args);
      } else {
        LOG.debug(line, args);
      }
    }
    cache.maybeWriteStatistics();
  }

  /** What this stream read: {@link StreamStatistics}' counters (a snapshot). */
  @Override
  public synchronized IOStatistics getIOStatistics() {
    return stats.snapshot();
  }

  /** This stream's counters by name (as {@link #getIOStatistics()}'s counters). */
  public synchronized Map<String, Long> statistics() {
    return stats.counters();
  }

  @Override
  public String toString() {
    return "CachingInputStream{" + identity + ", pos=" + pos + (closed ? ", closed" : "") + "}";
  }

  /** Waits until every block being fetched ahead is fetched or failed (tests). */
  synchronized void awaitReadAhead() throws InterruptedException {
    for (Future<ReadCache.Block> f : ahead.values()) {
      try {
        f.get();
      } catch (ExecutionException e) {
        // its reader would get the failure; here only its end counts
      }
    }
  }

  /** Blocks being fetched ahead now, by index (tests). */
  synchronized java.util.Set<Long> blocksAhead() {
    return new java.util.TreeSet<>(ahead.keySet());
  }

  /** The block holding {@code p}, made current; {@code readEnd} is where the read asking for it ends. */
  private BlockView current(long p, long readEnd) throws IOException {
    long index = p / blockSize;
    if (index != blockIndex) {
      fetchAhead(index, Math.max((readEnd - 1) / blockSize, splitLastBlock));
      BlockView b = take(index);
      if (block != null) {
        block.release();
      }
      block = b;
      blockIndex = index;
    }
    return block;
  }

  /**
   * Starts fetching blocks {@code index + 1} to {@code min(index + readAhead, bound)} that are not being fetched
   * already, and forgets read-ahead of blocks behind {@code index} or beyond the window (a seek away: they complete
   * and stay cached).
   */
  private void fetchAhead(long index, long bound) {
    long last = Math.min(Math.min(bound, lastBlock), index + readAhead);
    for (Iterator<Map.Entry<Long, Future<ReadCache.Block>>> it = ahead.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Long, Future<ReadCache.Block>> e = it.next();
      long i = e.getKey();
      if (i < index || i > index + readAhead) {
        discard(e.getValue());
        it.remove();
        stats.readAheadUnused++;
      }
    }
    for (long i = index + 1; i <= last; i++) {
      if (i != blockIndex && !ahead.containsKey(i)) { // the current block is held: a positioned read reuses it
        ahead.put(i, cache.blockAhead(store, identity, i, counts));
      }
    }
  }

  /**
   * A block fetched ahead that will not be read: released now when its fetch is done (else the garbage collector
   * frees it when the fetch ends; the block is cached either way).
   */
  private static void discard(Future<ReadCache.Block> f) {
    if (f.isDone() && !f.isCancelled()) {
      try {
        f.get().data.release();
      } catch (ExecutionException | InterruptedException failed) {
        // its failure was never asked for: nothing to release
        if (failed instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /** Block {@code index}: from the read-ahead when it is being fetched there, else fetched now. */
  private BlockView take(long index) throws IOException {
    Future<ReadCache.Block> f = ahead.remove(index);
    ReadCache.Block b;
    if (f != null) {
      b = await(f);
      stats.readAheadUsed++;
    } else {
      b = cache.block(store, identity, index, counts);
    }
    if (b.fromCache) {
      stats.hits++;
      stats.bytesFromCache += b.data.length();
    } else {
      stats.misses++;
      stats.bytesFromStore += b.data.length();
    }
    return b.data;
  }

  private ReadCache.Block await(Future<ReadCache.Block> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException ie = new InterruptedIOException("interrupted reading " + identity.path());
      ie.initCause(e);
      throw ie;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        throw (IOException) cause; // its own type (ObjectChangedException, FileNotFoundException) and message
      }
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw new IOException("read ahead of " + identity.path() + " failed", cause);
    }
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + identity.path());
    }
  }
}
