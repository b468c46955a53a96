package io.objectcommit.readcache;

import io.objectcommit.store.config.ConfigReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
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

  static ReadCacheOptions options(Path dir, long maxSize, int readAhead) {
    Configuration conf = new Configuration(false);
    conf.set(ReadCacheConstants.DIR, dir.toString());
    conf.set(ReadCacheConstants.BLOCK_SIZE, Integer.toString(BLOCK));
    conf.set(ReadCacheConstants.MAX_SIZE, Long.toString(maxSize));
    conf.set(ReadCacheConstants.READ_AHEAD, Integer.toString(readAhead));
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

  /**
   * The files under {@code dir} whose names end with {@code suffix}, sorted. Other JVMs may be renaming and deleting
   * files meanwhile: a file that vanishes while the directory is read is simply not listed (Files.walk would fail on
   * it, reading its attributes).
   */
  static List<Path> files(Path dir, String suffix) {
    List<Path> out = new ArrayList<>();
    collect(dir, suffix, out);
    Collections.sort(out);
    return out;
  }

  private static void collect(Path dir, String suffix, List<Path> out) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        if (p.getFileName().toString().endsWith(suffix)) {
          out.add(p);
        } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          collect(p, suffix, out);
        }
      }
    } catch (NoSuchFileException gone) {
      // removed meanwhile: nothing in it
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
