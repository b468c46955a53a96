package io.objectcommit.readcache;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.MeanStatistic;

/**
 * What one {@link CachingInputStream} read, and the names under which Hadoop's {@link IOStatistics} of the stream
 * show it ({@code FSDataInputStream.getIOStatistics()}, {@code IOStatisticsLogging.ioStatisticsToString(stream)}).
 * Counted by the stream under its lock; read through {@link #snapshot()}.
 */
public final class StreamStatistics {

  /** Bytes the stream returned to its reader: {@value}. */
  public static final String BYTES_READ = "stream_read_bytes";
  /** Blocks served from the cache directory: {@value}. */
  public static final String HITS = ReadCacheStatistics.HITS;
  /** Blocks fetched from the store, one ranged GET each: {@value}. */
  public static final String MISSES = ReadCacheStatistics.MISSES;
  /** Bytes of the blocks served from the cache: {@value}. */
  public static final String BYTES_FROM_CACHE = ReadCacheStatistics.BYTES_FROM_CACHE;
  /** Bytes of the blocks fetched from the store: {@value}. */
  public static final String BYTES_FROM_STORE = ReadCacheStatistics.BYTES_FROM_STORE;
  /** GETs not sent because the block was cached (one per hit): {@value}. */
  public static final String REQUESTS_SAVED = "cache_requests_saved";
  /** Blocks fetched ahead of the reader and then read: {@value}. */
  public static final String READ_AHEAD_USED = "cache_read_ahead_used";
  /** Blocks fetched ahead and not read by the stream (left cached for the next reader): {@value}. */
  public static final String READ_AHEAD_UNUSED = "cache_read_ahead_unused";

  long bytesRead;
  long hits;
  long misses;
  long bytesFromCache;
  long bytesFromStore;
  long readAheadUsed;
  long readAheadUnused;

  StreamStatistics() {
  }

  /** The counters by name, in a stable order. */
  Map<String, Long> counters() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put(BYTES_READ, bytesRead);
    m.put(HITS, hits);
    m.put(MISSES, misses);
    m.put(BYTES_FROM_CACHE, bytesFromCache);
    m.put(BYTES_FROM_STORE, bytesFromStore);
    m.put(REQUESTS_SAVED, hits);
    m.put(READ_AHEAD_USED, readAheadUsed);
    m.put(READ_AHEAD_UNUSED, readAheadUnused);
    return m;
  }

  /** The counters now, as Hadoop IOStatistics (counters only; no gauges, extremes or means). */
  IOStatistics snapshot() {
    Map<String, Long> counters = Collections.unmodifiableMap(counters());
    return new IOStatistics() {
      @Override
      public Map<String, Long> counters() {
        return counters;
      }

      @Override
      public Map<String, Long> gauges() {
        return Collections.emptyMap();
      }

      @Override
      public Map<String, Long> minimums() {
        return Collections.emptyMap();
      }

      @Override
      public Map<String, Long> maximums() {
        return Collections.emptyMap();
      }

      @Override
      public Map<String, MeanStatistic> meanStatistics() {
        return Collections.emptyMap();
      }

      @Override
      public String toString() {
        return counters.toString();
      }
    };
  }
}
