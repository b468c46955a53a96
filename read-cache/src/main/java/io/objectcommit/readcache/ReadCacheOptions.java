package io.objectcommit.readcache;

import io.objectcommit.store.config.ConfigReader;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Objects;

/** The read cache's settings, parsed once ({@link #from}); a bad value fails naming its key. Immutable. */
public final class ReadCacheOptions {

  private final Path dir;
  private final String dirKey;
  private final int blockSize;
  private final long maxSize;
  private final long revalidateAfterMs;
  private final int readAhead;

  private ReadCacheOptions(Path dir, String dirKey, int blockSize, long maxSize, long revalidateAfterMs,
      int readAhead) {
    this.dir = Objects.requireNonNull(dir, "dir");
    this.dirKey = dirKey;
    this.blockSize = blockSize;
    this.maxSize = maxSize;
    this.revalidateAfterMs = revalidateAfterMs;
    this.readAhead = readAhead;
  }

  /** Reads every read cache key of {@link ReadCacheConstants} (per-bucket forms win, as for every key). */
  public static ReadCacheOptions from(ConfigReader reader) {
    String dirValue = reader.get(ReadCacheConstants.DIR, ReadCacheConstants.DIR_DEFAULT);
    Path dir;
    try {
      dir = dirValue.isEmpty() ? defaultDir() : Paths.get(dirValue).toAbsolutePath();
    } catch (java.nio.file.InvalidPathException e) {
      throw reader.bad(ReadCacheConstants.DIR, dirValue, "a local directory path");
    }
    long block = reader.getBytes(ReadCacheConstants.BLOCK_SIZE, ReadCacheConstants.BLOCK_SIZE_DEFAULT,
        ReadCacheConstants.BLOCK_SIZE_MIN);
    if (block > ReadCacheConstants.BLOCK_SIZE_MAX) {
      throw reader.bad(ReadCacheConstants.BLOCK_SIZE, reader.get(ReadCacheConstants.BLOCK_SIZE, ""),
          "a size from " + ReadCacheConstants.BLOCK_SIZE_MIN + " to " + ReadCacheConstants.BLOCK_SIZE_MAX + " bytes");
    }
    long max = reader.getBytes(ReadCacheConstants.MAX_SIZE, ReadCacheConstants.MAX_SIZE_DEFAULT, block);
    long revalidate = reader.getDurationMs(ReadCacheConstants.REVALIDATE_AFTER,
        ReadCacheConstants.REVALIDATE_AFTER_DEFAULT_MS, 0);
    int ahead = reader.getInt(ReadCacheConstants.READ_AHEAD, ReadCacheConstants.READ_AHEAD_DEFAULT, 0,
        ReadCacheConstants.READ_AHEAD_MAX);
    return new ReadCacheOptions(dir, reader.effectiveKey(ReadCacheConstants.DIR), (int) block, max, revalidate,
        ahead);
  }

  /** {@code <java.io.tmpdir>/objectcommit-cache-<user.name>}. */
  public static Path defaultDir() {
    return Paths.get(System.getProperty("java.io.tmpdir"), "objectcommit-cache-" + System.getProperty("user.name"))
        .toAbsolutePath();
  }

  /** The cache directory. */
  public Path dir() {
    return dir;
  }

  /** The key that named the directory (its per-bucket form when that was set), for errors about it. */
  public String dirKey() {
    return dirKey;
  }

  /** The block size in bytes. */
  public int blockSize() {
    return blockSize;
  }

  /** The bound of the directory's size in bytes. */
  public long maxSize() {
    return maxSize;
  }

  /** How long an identity is trusted before an open checks it again, in ms (0: every open checks). */
  public long revalidateAfterMs() {
    return revalidateAfterMs;
  }

  /** How many blocks a stream fetches at once beyond the one it reads (0: none). */
  public int readAhead() {
    return readAhead;
  }

  @Override
  public String toString() {
    return "ReadCacheOptions{dir=" + dir + ", blockSize=" + blockSize + ", maxSize=" + maxSize
        + ", revalidateAfterMs=" + revalidateAfterMs + ", readAhead=" + readAhead + "}";
  }
}
