package io.objectcommit.it.readcache;

import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.readcache.CacheUsage;
import io.objectcommit.readcache.CachingS3AFileSystem;
import io.objectcommit.readcache.ReadCacheOptions;
import io.objectcommit.readcache.files.ApplicationUsage;
import io.objectcommit.store.config.ConfigReader;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.S3Operation;
import io.objectcommit.testsupport.proxy.SeenRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * What the read cache's Spark ITs share: a Parquet table whose sums are known exactly, written without the cache;
 * applications (SparkSessions) that sum it through the caching file system with the cache settings of the test;
 * the fault proxy's count of the requests on the table's data files.
 */
final class ReadCacheTables {

  /** Rows of the table: two double columns, about 10 MB of Parquet in two files of two 4 MiB blocks each. */
  static final long ROWS = 2_500_000;

  private ReadCacheTables() {
  }

  /** The table: {@code a} = id + version (exact in a double), {@code b} = (id % 1000) * 0.25 * version. */
  static void write(ProxiedBucket bucket, String path, int version) {
    try (SparkSession spark = SparkSessions.local("readcache-write-" + version, bucket.bucket().s3aOptions())) {
      spark.range(0, ROWS, 1, 2)
          .selectExpr("cast(id + " + version + " as double) as a", "cast(id % 1000 as double) * 0.25 * " + version
              + " as b")
          .write().mode("overwrite").parquet(path);
    }
  }

  /** The sums of version {@code v}: both exact in doubles, whatever the order of addition. */
  static double[] expected(int v) {
    double a = (double) ROWS * (ROWS - 1) / 2 + (double) ROWS * v;
    double perThousand = 999.0 * 1000 / 2 * 0.25 * v;
    double b = perThousand * (ROWS / 1000);
    return new double[] {a, b};
  }

  /** What one application saw: its sums, its Spark's version and its application id. */
  static final class Sums {
    final double a;
    final double b;
    final String sparkVersion;
    final String applicationId;

    Sums(double a, double b, String sparkVersion, String applicationId) {
      this.a = a;
      this.b = b;
      this.sparkVersion = sparkVersion;
      this.applicationId = applicationId;
    }
  }

  /**
   * One application: a new SparkSession whose s3a:// is the caching file system with {@code cacheSettings}
   * ({@code fs.objectcommit.cache.*}); sums both columns; stops.
   */
  static Sums sum(ProxiedBucket bucket, String app, String table, Map<String, String> cacheSettings) {
    try (SparkSession spark = SparkSessions.local("readcache-" + app, cachingOptions(bucket, cacheSettings))) {
      Row r = spark.read().parquet(table).selectExpr("sum(a)", "sum(b)").first();
      return new Sums(r.getDouble(0), r.getDouble(1), spark.version(), spark.sparkContext().applicationId());
    }
  }

  /** The proxied endpoint's {@code fs.s3a.*} settings, the caching file system and {@code cacheSettings}. */
  static Map<String, String> cachingOptions(ProxiedBucket bucket, Map<String, String> cacheSettings) {
    Map<String, String> hadoop = new LinkedHashMap<>(bucket.s3aOptions());
    hadoop.put("fs.s3a.impl", CachingS3AFileSystem.CLASS_NAME);
    hadoop.putAll(cacheSettings);
    return hadoop;
  }

  /** The cache's options as the applications' file systems read them (the same JVM-wide cache). */
  static ReadCacheOptions options(ProxiedBucket bucket, Map<String, String> cacheSettings) {
    Configuration conf = new Configuration(false);
    cacheSettings.forEach(conf::set);
    return ReadCacheOptions.from(new ConfigReader(conf, bucket.bucket().name()));
  }

  static List<String> dataFiles(S3TestBucket bucket, String prefix) {
    return bucket.listKeys(prefix.substring(bucket.prefix().length())).stream()
        .filter(k -> k.endsWith(".parquet")).sorted().collect(Collectors.toList());
  }

  /** The blocks of {@code files} at {@code blockSize}. */
  static long blocks(S3TestBucket bucket, List<String> files, long blockSize) {
    long blocks = 0;
    for (String f : files) {
      long size = bucket.plain().getObject(bucket.name(), f).length;
      blocks += (size + blockSize - 1) / blockSize;
    }
    return blocks;
  }

  static Map<String, Long> minus(Map<String, Long> now, Map<String, Long> before) {
    Map<String, Long> d = new LinkedHashMap<>();
    now.forEach((k, v) -> d.put(k, v - before.getOrDefault(k, 0L)));
    return d;
  }

  /** What the proxy saw on the data files: GETs by objectcommit (the cache's fills) and by anyone else, our HEADs. */
  static final class Reads {
    final long ourGets;
    final long otherGets;
    final long ourHeads;

    Reads(long ourGets, long otherGets, long ourHeads) {
      this.ourGets = ourGets;
      this.otherGets = otherGets;
      this.ourHeads = ourHeads;
    }

    @Override
    public String toString() {
      return "GETs by the cache " + ourGets + ", other GETs " + otherGets + ", HEADs by the cache " + ourHeads;
    }
  }

  static Reads reads(ProxiedBucket bucket, String tablePrefix) {
    long ourGets = 0;
    long otherGets = 0;
    long ourHeads = 0;
    for (SeenRequest r : bucket.proxy().requests()) {
      String key = r.request().key();
      if (key == null || !key.startsWith(tablePrefix) || !key.endsWith(".parquet")) {
        continue;
      }
      if (r.operation() == S3Operation.GET) {
        if (r.fromObjectcommit()) {
          ourGets++;
        } else {
          otherGets++;
        }
      } else if (r.operation() == S3Operation.HEAD && r.fromObjectcommit()) {
        ourHeads++;
      }
    }
    return new Reads(ourGets, otherGets, ourHeads);
  }

  /** The record of one application (summed over its JVMs). */
  static ApplicationUsage record(CacheUsage usage, String applicationId) {
    return usage.applications().stream().filter(u -> u.application.equals(applicationId)).findFirst()
        .orElseThrow(() -> new AssertionError("no record of " + applicationId + ": " + usage.records()));
  }
}
