package io.objectcommit.readcache;

import io.objectcommit.store.config.ConfigReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;

/** What the read cache's tests share: options on a test directory, object bytes, the directory's files. */
final class CacheFixture {

  static final String BUCKET = "cache-bucket";
  static final int BLOCK = 4096;

  private CacheFixture() {
  }

  static ReadCacheOptions options(Path dir, long maxSize) {
    Configuration conf = new Configuration(false);
    conf.set(ReadCacheConstants.DIR, dir.toString());
    conf.set(ReadCacheConstants.BLOCK_SIZE, Integer.toString(BLOCK));
    conf.set(ReadCacheConstants.MAX_SIZE, Long.toString(maxSize));
    return ReadCacheOptions.from(new ConfigReader(conf, BUCKET));
  }

  static ReadCacheOptions options(Path dir) {
    return options(dir, ReadCacheConstants.MAX_SIZE_DEFAULT);
  }

  /** {@code n} bytes, the same for the same seed in every JVM. */
  static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  static List<Path> files(Path dir, String suffix) {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static long totalSize(List<Path> files) {
    long t = 0;
    for (Path p : files) {
      try {
        t += Files.size(p);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return t;
  }
}
