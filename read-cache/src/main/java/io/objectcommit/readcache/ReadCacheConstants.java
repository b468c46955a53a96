package io.objectcommit.readcache;

/**
 * The read cache's settings and the names users write in their configuration (docs/user-guide.md, "Read cache
 * (preview)"). Each key is read once, into {@link ReadCacheOptions}.
 */
public final class ReadCacheConstants {

  private ReadCacheConstants() {
  }

  /** The settings' prefix: {@value}. */
  public static final String PREFIX = "fs.objectcommit.cache.";

  /**
   * The cache directory, on a local disk, shared by every JVM of the user on the host: {@value}. Created with
   * owner-only permissions (0700); a directory owned by another user, or open to its group or others, is refused.
   */
  public static final String DIR = PREFIX + "dir";

  /**
   * Default of {@link #DIR}: empty, meaning {@code <java.io.tmpdir>/objectcommit-cache-<user.name>} (the user's
   * name in it, so that two users of a host never share, or fight over, one directory).
   */
  public static final String DIR_DEFAULT = "";

  /** The size of a cached block, and of each ranged GET that fills one: {@value} (a size: 4M, 1048576...). */
  public static final String BLOCK_SIZE = PREFIX + "block-size";

  /**
   * Default of {@link #BLOCK_SIZE}: {@value} bytes (4 MiB). At the 50 to 100 MB/s one S3 connection gives, a GET
   * of 4 MiB spends about as long transferring as waiting for its first byte (tens of ms), so cold reads are not
   * dominated by per-request latency, and a 1 GiB object costs 256 GETs, not the 1,024 of 1 MiB pages; a small
   * read (a Parquet footer) fetches at most one block.
   */
  public static final long BLOCK_SIZE_DEFAULT = 4L * 1024 * 1024;

  /** Smallest {@link #BLOCK_SIZE}: {@value} bytes. */
  public static final long BLOCK_SIZE_MIN = 4 * 1024;

  /** Largest {@link #BLOCK_SIZE}: {@value} bytes (a block is read into memory whole). */
  public static final long BLOCK_SIZE_MAX = 64L * 1024 * 1024;

  /**
   * The bound of the cache directory's size: {@value}. When the blocks a JVM counts exceed it, the least recently
   * used blocks (by file modification time, touched on every hit) are deleted down to 90% of it.
   */
  public static final String MAX_SIZE = PREFIX + "max-size";

  /** Default of {@link #MAX_SIZE}: {@value} bytes (10 GiB). */
  public static final long MAX_SIZE_DEFAULT = 10L * 1024 * 1024 * 1024;

  /**
   * How long an object's identity (its ETag and length, from the HEAD of an {@code open}) is trusted before the
   * next {@code open} of the same path checks it again: {@value} (a duration: 0, 30s, 5m). A read that starts
   * within this time after an overwrite may still read the replaced object, whole (its cached blocks, or a failure
   * with {@link io.objectcommit.store.ObjectChangedException} for a block that is not cached), never a mix; per
   * JVM. {@code 0} checks on every open: one HEAD per open, and a read that starts after an overwrite sees the new
   * object.
   */
  public static final String REVALIDATE_AFTER = PREFIX + "revalidate-after";

  /** Default of {@link #REVALIDATE_AFTER}: {@value} ms, every open checks the identity (never stale). */
  public static final long REVALIDATE_AFTER_DEFAULT_MS = 0;

  /** The most identities one JVM remembers for {@link #REVALIDATE_AFTER}: {@value} (beyond, it forgets them all). */
  public static final int REMEMBERED_IDENTITIES_MAX = 100_000;

  /**
   * How many blocks one stream fetches at once beyond the block it is reading: {@value} (0 to
   * {@link #READ_AHEAD_MAX}; 0 fetches one block at a time). A read that asks for several blocks (Parquet reads a
   * column chunk in one call) fetches them in parallel, this many ahead at a time; a stream that knows where its
   * task's split ends (Hadoop's {@code fs.option.openfile.split.end}, given through {@code openFile}) also fetches
   * up to this many blocks beyond what was asked, never past the block holding the split's last byte. Without that
   * hint (Spark 3.5's Hadoop 3.3.4; {@code open}) a stream never fetches a block the reader has not asked for.
   */
  public static final String READ_AHEAD = PREFIX + "read-ahead";

  /** Default of {@link #READ_AHEAD}: {@value} blocks (16 MiB of 4 MiB blocks in flight per stream). */
  public static final int READ_AHEAD_DEFAULT = 4;

  /** Largest {@link #READ_AHEAD}: {@value} blocks. */
  public static final int READ_AHEAD_MAX = 64;

  /**
   * Threads one JVM's cache (per directory and settings) fetches blocks ahead with: {@value}. They only wait for
   * S3; a stream's reader thread fetches the block it needs itself when no read-ahead has it.
   */
  public static final int FETCH_THREADS = 16;

  /** Hadoop's {@code openFile} option naming where a task's split ends (Hadoop 3.3.5+): {@value}. */
  public static final String OPENFILE_SPLIT_END = "fs.option.openfile.split.end";

  /** The name of the directory's block files' parent, inside {@link #DIR}: {@value}. */
  public static final String BLOCKS_SUBDIR = "blocks";

  /** The name of the folder of the application records ({@code files.ApplicationUsage}), inside {@link #DIR}: {@value}. */
  public static final String APPLICATIONS_SUBDIR = "applications";

  /**
   * How often at most a JVM rewrites its application records while it reads: {@value} ms. They are also written
   * when the file system is closed, when the JVM exits, and when the JVM starts reading for another application.
   */
  public static final long RECORD_INTERVAL_MS = 5_000;

  /** An application record not updated for this long is deleted when a JVM opens the directory: {@value} ms (7 days). */
  public static final long RECORD_MAX_AGE_MS = 7L * 24 * 3600 * 1000;

  /** The most application records a directory keeps (the least recently updated beyond are deleted): {@value}. */
  public static final int RECORD_MAX_FILES = 1_000;
}
