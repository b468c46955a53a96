package io.objectcommit.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.util.VersionInfo;

/**
 * A way for a separate Spark application to read the benchmark's Parquet table again (docs/benchmarks.md, "Repeated
 * reads by separate applications"): stock S3A's input streams of the line's Hadoop, Spark's {@code persist} inside
 * one application, and objectcommit's read cache cold and warm. Every setting not named here is the default.
 */
public enum ReadContender {

  /** Stock S3A, its default input stream: the baseline. */
  STOCK("stock S3A (default stream)", false, false, null, null),
  /** S3A's prefetching stream (Hadoop 3.4), its default block size and count. */
  PREFETCH("stock S3A prefetching", false, false, "fs.s3a.prefetch.enabled", "true"),
  /** S3A's stream over the Analytics Accelerator Library for Amazon S3 (Hadoop 3.4.2). */
  ANALYTICS("stock S3A Analytics Accelerator", false, false, "fs.s3a.input.stream.type", "analytics"),
  /** Spark's {@code persist} inside one application: the first action reads S3 and fills, the second is measured. */
  PERSIST("Spark persist (same application)", false, true, null, null),
  /**
   * The same Parquet files copied to local disk before the rounds, read from there: the floor a cache on local disk
   * can reach (no S3 at all), so that the warm read is judged against it as well as against stock S3A.
   */
  LOCAL_DISK("the table on local disk (floor)", false, false, null, null),
  /** The read cache with an empty cache directory (emptied before the application starts). */
  CACHE_COLD("objectcommit read cache, cold", true, false, null, null),
  /** The read cache after a previous application (the cold run just before) filled it. */
  CACHE_WARM("objectcommit read cache, warm", true, false, null, null);

  /** The class S3A of Hadoop 3.4 prefetches with; absent from Hadoop 3.3.4. */
  static final String PREFETCH_CLASS = "org.apache.hadoop.fs.s3a.prefetch.S3APrefetchingInputStream";
  /** The class S3A of Hadoop 3.4.2 opens Analytics Accelerator streams with; absent before. */
  static final String ANALYTICS_CLASS = "org.apache.hadoop.fs.s3a.impl.streams.AnalyticsStreamFactory";
  /** The read cache's file system class (read-cache's {@code CachingS3AFileSystem.CLASS_NAME}). */
  static final String CACHING_FS = "io.objectcommit.readcache.CachingS3AFileSystem";
  /** The read cache's directory key (read-cache's {@code ReadCacheConstants.DIR}). */
  static final String CACHE_DIR_KEY = "fs.objectcommit.cache.dir";

  private final String label;
  private final boolean cache;
  private final boolean persist;
  /** The contender's one Hadoop setting of its own (null: none). */
  private final String key;
  private final String value;

  ReadContender(String label, boolean cache, boolean persist, String key, String value) {
    this.label = label;
    this.cache = cache;
    this.persist = persist;
    this.key = key;
    this.value = value;
  }

  public String label() {
    return label;
  }

  boolean ours() {
    return cache;
  }

  boolean persist() {
    return persist;
  }

  /** The Hadoop settings of this contender's application beside the endpoint's. */
  Map<String, String> hadoopOptions(String cacheDir) {
    Map<String, String> m = new LinkedHashMap<>();
    if (key != null) {
      m.put(key, value);
    }
    if (cache) {
      m.put("fs.s3a.impl", CACHING_FS);
      m.put(CACHE_DIR_KEY, cacheDir);
    }
    return m;
  }

  /** Why this contender cannot run on the class path's Hadoop, or empty when it can. */
  Optional<String> unavailableReason() {
    return switch (this) {
      case PREFETCH -> present(PREFETCH_CLASS) ? Optional.empty()
          : Optional.of("Hadoop " + VersionInfo.getVersion() + " has no S3A prefetching stream");
      case ANALYTICS -> present(ANALYTICS_CLASS) ? Optional.empty()
          : Optional.of("Hadoop " + VersionInfo.getVersion() + " has no S3A Analytics Accelerator stream");
      default -> Optional.empty();
    };
  }

  /** The contenders in the order of each round: the warm read right after the cold one that filled the cache. */
  public static List<ReadContender> roundOrder() {
    return List.of(STOCK, PREFETCH, ANALYTICS, PERSIST, CACHE_COLD, CACHE_WARM);
  }

  /** The benchmark's contenders by default: every one of {@link #roundOrder()} and the local-disk floor. */
  public static List<ReadContender> benchmarkOrder() {
    List<ReadContender> order = new ArrayList<>(roundOrder());
    order.add(order.indexOf(CACHE_COLD), LOCAL_DISK);
    return List.copyOf(order);
  }

  static ReadContender of(String name) {
    for (ReadContender c : values()) {
      if (c.name().equalsIgnoreCase(name.replace('-', '_'))) {
        return c;
      }
    }
    throw new IllegalArgumentException("no read contender '" + name + "' (known: " + List.of(values()) + ")");
  }

  private static boolean present(String className) {
    try {
      Class.forName(className, false, ReadContender.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
