package io.objectcommit.readcache;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one {@link ReadCache} (one JVM's use of a cache directory) did: blocks served from the cache (hits) and
 * fetched from the store (misses), their bytes, blocks evicted, and blocks found corrupt (deleted and fetched
 * again, never served). Counters only grow; {@link #snapshot()} reads them all.
 *
 * <p>One object per JVM and directory ({@link ReadCache#statistics()}), and one per application within it
 * ({@link ReadCache#applicationStatistics()}) whose every count is also added to the JVM's (its parent).
 */
public final class ReadCacheStatistics {

  /** Blocks served from the cache directory: {@value}. */
  public static final String HITS = "cache_hits";
  /** Blocks fetched from the store (a ranged GET each): {@value}. */
  public static final String MISSES = "cache_misses";
  /** Bytes served from the cache directory: {@value}. */
  public static final String BYTES_FROM_CACHE = "cache_bytes_from_cache";
  /** Bytes fetched from the store: {@value}. */
  public static final String BYTES_FROM_STORE = "cache_bytes_from_store";
  /** Blocks this JVM deleted to keep the directory within its bound: {@value}. */
  public static final String EVICTIONS = "cache_evictions";
  /** Bytes of those blocks: {@value}. */
  public static final String EVICTED_BYTES = "cache_evicted_bytes";
  /** Block files that failed their checks (checksum, identity, size) and were deleted: {@value}. */
  public static final String CHECKSUM_FAILURES = "cache_checksum_failures";
  /** Blocks fetched but not written to the directory (the write failed: disk full, permissions): {@value}. */
  public static final String WRITE_FAILURES = "cache_write_failures";

  /** Counts every event too (the JVM's statistics of an application's); null for the JVM's. */
  private final ReadCacheStatistics parent;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder bytesFromCache = new LongAdder();
  private final LongAdder bytesFromStore = new LongAdder();
  private final LongAdder evictions = new LongAdder();
  private final LongAdder evictedBytes = new LongAdder();
  private final LongAdder checksumFailures = new LongAdder();
  private final LongAdder writeFailures = new LongAdder();

  /** Statistics of their own (a JVM's). */
  public ReadCacheStatistics() {
    this(null);
  }

  /** Statistics whose every count is also added to {@code parent} (an application's within a JVM's). */
  public ReadCacheStatistics(ReadCacheStatistics parent) {
    this.parent = parent;
  }

  void hit(long bytes) {
    hits.increment();
    bytesFromCache.add(bytes);
    if (parent != null) {
      parent.hit(bytes);
    }
  }

  void miss(long bytes) {
    misses.increment();
    bytesFromStore.add(bytes);
    if (parent != null) {
      parent.miss(bytes);
    }
  }

  /** One block evicted (called by the cache directory). */
  public void evicted(long bytes) {
    evictions.increment();
    evictedBytes.add(bytes);
    if (parent != null) {
      parent.evicted(bytes);
    }
  }

  /** One block file failed its checks and was deleted (called by the cache directory). */
  public void checksumFailure() {
    checksumFailures.increment();
    if (parent != null) {
      parent.checksumFailure();
    }
  }

  void writeFailure() {
    writeFailures.increment();
    if (parent != null) {
      parent.writeFailure();
    }
  }

  public long hits() {
    return hits.sum();
  }

  public long misses() {
    return misses.sum();
  }

  public long bytesFromCache() {
    return bytesFromCache.sum();
  }

  public long bytesFromStore() {
    return bytesFromStore.sum();
  }

  public long evictions() {
    return evictions.sum();
  }

  public long evictedBytes() {
    return evictedBytes.sum();
  }

  public long checksumFailures() {
    return checksumFailures.sum();
  }

  public long writeFailures() {
    return writeFailures.sum();
  }

  /** Every counter by its name, in a stable order. */
  public Map<String, Long> snapshot() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put(HITS, hits());
    m.put(MISSES, misses());
    m.put(BYTES_FROM_CACHE, bytesFromCache());
    m.put(BYTES_FROM_STORE, bytesFromStore());
    m.put(EVICTIONS, evictions());
    m.put(EVICTED_BYTES, evictedBytes());
    m.put(CHECKSUM_FAILURES, checksumFailures());
    m.put(WRITE_FAILURES, writeFailures());
    return m;
  }

  @Override
  public String toString() {
    return snapshot().toString();
  }
}
