package io.objectcommit.readcache;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What a cache directory holds on disk at one moment ({@link ReadCache#contents}), or what {@link ReadCache#clear}
 * removed: block files and their bytes, temporary files (fills in flight, or left by a killed JVM), and the oldest
 * and newest block's last use (a block file's modification time: written, or touched by a hit). Only what the disk
 * tells: hits, misses and bytes served are counted by each JVM ({@link ReadCacheStatistics}) and not kept on disk.
 * Immutable.
 */
public final class CacheContents {

  private final Path dir;
  private final boolean exists;
  private final long blocks;
  private final long blockBytes;
  private final long tempFiles;
  private final long tempBytes;
  private final Instant oldestUse;
  private final Instant newestUse;

  /** Made by the cache directory's walk (package {@code impl}). */
  public CacheContents(Path dir, boolean exists, long blocks, long blockBytes, long tempFiles, long tempBytes,
      Instant oldestUse, Instant newestUse) {
    this.dir = Objects.requireNonNull(dir, "dir");
    this.exists = exists;
    this.blocks = blocks;
    this.blockBytes = blockBytes;
    this.tempFiles = tempFiles;
    this.tempBytes = tempBytes;
    this.oldestUse = oldestUse;
    this.newestUse = newestUse;
  }

  /** The cache directory. */
  public Path dir() {
    return dir;
  }

  /** False when there is no such directory yet (nothing was ever cached there). */
  public boolean exists() {
    return exists;
  }

  /** Block files. */
  public long blocks() {
    return blocks;
  }

  /** Their bytes on disk (header and checksum included): what the size bound counts. */
  public long blockBytes() {
    return blockBytes;
  }

  /** Temporary files: fills in flight, or left by a JVM killed mid-fill (never read; swept after 10 minutes). */
  public long tempFiles() {
    return tempFiles;
  }

  public long tempBytes() {
    return tempBytes;
  }

  /** The last use of the least recently used block (the next to be evicted), when there is a block. */
  public Optional<Instant> oldestUse() {
    return Optional.ofNullable(oldestUse);
  }

  /** The last use of the most recently used block, when there is a block. */
  public Optional<Instant> newestUse() {
    return Optional.ofNullable(newestUse);
  }

  @Override
  public String toString() {
    return "CacheContents{" + dir + (exists ? "" : " (absent)") + ", blocks=" + blocks + ", blockBytes=" + blockBytes
        + ", tempFiles=" + tempFiles + ", tempBytes=" + tempBytes + ", oldestUse=" + oldestUse + ", newestUse="
        + newestUse + "}";
  }
}
