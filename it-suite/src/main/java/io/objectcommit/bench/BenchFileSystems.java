package io.objectcommit.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;

/**
 * Hadoop file systems in the side-by-side benchmark as users have them: S3A's FileSystem cache on (the test
 * sessions of {@code SparkSessions} turn it off), and every cached instance closed after each contender, so that
 * neither one contender's settings nor its file systems' threads reach the next. With the cache off, every lookup
 * of a path's file system made a new S3A instance that nobody closed; on Hadoop 3.5 each holds thread pools of its
 * own, and a run of the stock committers exhausted the JVM's threads.
 */
final class BenchFileSystems {

  private BenchFileSystems() {
  }

  /** {@code s3aOptions} with S3A's FileSystem cache on. */
  static Map<String, String> cached(Map<String, String> s3aOptions) {
    Map<String, String> m = new LinkedHashMap<>(s3aOptions);
    m.put("fs.s3a.impl.disable.cache", "false");
    return m;
  }

  /** Closes every cached file system of the JVM (after a contender's session stopped). */
  static void closeAll() {
    try {
      FileSystem.closeAll();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close the cached file systems after a contender", e);
    }
  }
}
