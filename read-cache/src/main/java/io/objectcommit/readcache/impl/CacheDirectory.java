package io.objectcommit.readcache.impl;

import io.objectcommit.readcache.CacheContents;
import io.objectcommit.readcache.CacheDirectoryException;
import io.objectcommit.readcache.ObjectIdentity;
import io.objectcommit.readcache.ReadCacheConstants;
import io.objectcommit.readcache.ReadCacheStatistics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blocks of one cache directory as one JVM sees them. Several JVMs (of one user) share a directory with no
 * coordination but the file system's:
 *
 * <ul>
 *   <li><b>fill</b>: a block is written whole to a temporary file beside its final name (created 0600, a name no
 *       reader looks up) and renamed over the final name ({@code ATOMIC_MOVE}, rename(2)): a reader sees no file or
 *       a whole one; two JVMs filling one block both succeed and the survivor is one of two identical files. A JVM
 *       killed mid-fill leaves a temporary file, deleted by a later sweep, never read;
 *   <li><b>read</b>: the file is mapped and checked ({@link BlockFormat}: identity and CRC32C), and served from
 *       the mapping ({@link BlockView}); a file that
 *       fails is deleted (another JVM may have just replaced it with a good one: that costs one fetch) and counted;
 *       a hit touches the file's modification time, the eviction order;
 *   <li><b>bound</b>: each JVM keeps an estimate of the directory's size (a scan at open, plus its own writes) and
 *       rescans when its estimate passes the bound or when it has written a sixteenth of the bound since its last
 *       scan; a scan over the bound deletes the least recently used blocks down to 90% of it. Files another JVM
 *       deletes meanwhile are skipped. Between scans, other JVMs' writes can take the directory past the bound by
 *       what they wrote (at most a sixteenth of the bound each before they scan).
 * </ul>
 *
 * <p>Directories are created 0700, files 0600; a directory owned by another user or open to its group or others is
 * refused ({@link CacheDirectoryException}), since a block there could be read or planted by another user.
 */
public final class CacheDirectory {

  private static final Logger LOG = LoggerFactory.getLogger(CacheDirectory.class);

  static final String BLOCK_SUFFIX = ".blk";
  static final String TEMP_SUFFIX = ".tmp";
  /** A temporary file this old belongs to a dead fill (a live one takes well under a minute). */
  static final long STALE_TEMP_MS = TimeUnit.MINUTES.toMillis(10);

  private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> NOT_OWNER = EnumSet.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  private final Path dir;
  private final Path blocks;
  private final int blockSize;
  private final long maxSize;
  /** The statistics of the application reading now: evictions and failed checks are counted to it. */
  private final Supplier<ReadCacheStatistics> statistics;
  private final AtomicLong estimatedSize = new AtomicLong();
  private final AtomicLong writtenSinceScan = new AtomicLong();
  private final Object scanLock = new Object();

  private CacheDirectory(Path dir, int blockSize, long maxSize, Supplier<ReadCacheStatistics> statistics) {
    this.dir = dir;
    this.blocks = dir.resolve(ReadCacheConstants.BLOCKS_SUBDIR);
    this.blockSize = blockSize;
    this.maxSize = maxSize;
    this.statistics = statistics;
  }

  /**
   * Opens (creating where missing) a cache directory after checking that only this user can use it, then scans it
   * once for its size (evicting when over the bound).
   *
   * @param key the setting that named the directory, for the refusal's message
   * @throws CacheDirectoryException if the directory (or its blocks directory) is not this user's alone
   */
  public static CacheDirectory open(Path dir, String key, int blockSize, long maxSize,
      Supplier<ReadCacheStatistics> statistics) throws IOException {
    CacheDirectory d = new CacheDirectory(dir, blockSize, maxSize, statistics);
    ensureCacheDir(dir, key);
    ensurePrivateDir(d.blocks, key);
    d.scan();
    return d;
  }

  public Path dir() {
    return dir;
  }

  /** Where a block lives: {@code blocks/<first two hex digits>/<sha-256>.blk}. */
  Path blockPath(ObjectIdentity id, long index) {
    String name = BlockFormat.name(id, blockSize, index);
    return blocks.resolve(name.substring(0, 2)).resolve(name + BLOCK_SUFFIX);
  }

  /**
   * The payload of a cached block, checked, or empty when it is not cached (or its file failed a check: then it is
   * deleted).
   */
  public Optional<BlockView> read(ObjectIdentity id, long index, int length) throws IOException {
    Path path = blockPath(id, index);
    ByteBuffer file;
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      long size = ch.size();
      if (size > BlockFormat.maxFileSize(blockSize)) {
        return corrupt(path, id, index, "size " + size + " is more than a block's file can be");
      }
      file = mapOrRead(ch, (int) size, path);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    String[] why = new String[1];
    int payloadAt = BlockFormat.check(file, id, blockSize, index, length, why);
    if (payloadAt < 0) {
      BlockView.unmap(file);
      return corrupt(path, id, index, why[0]);
    }
    touch(path);
    return Optional.of(BlockView.of(file, payloadAt, length));
  }

  /**
   * A block file's bytes: mapped, so that the checksum and the reader's copy read the page cache where it lies (a
   * read would copy each block twice more on the heap); block files are never changed in place (written aside,
   * renamed over, deleted), so a mapping stays the file checked. Read onto the heap when the JVM cannot map it (out
   * of address space or map areas: a cache hit must not fail the read).
   */
  static ByteBuffer mapOrRead(FileChannel ch, int size, Path path) throws IOException {
    try {
      return ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
    } catch (IOException mapFailed) {
      LOG.debug("Read cache: cannot map {}, reading it instead", path, mapFailed);
    }
    ByteBuffer b = ByteBuffer.allocate(size);
    while (b.hasRemaining() && ch.read(b, b.position()) >= 0) {
      // the file's position follows the buffer's
    }
    // shorter than its size said: what was read, which the length check refuses
    return b.hasRemaining() ? ByteBuffer.wrap(Arrays.copyOf(b.array(), b.position())) : b;
  }

  /**
   * Writes a block: to a temporary file, then renamed over the block's name in one step. Another JVM writing the
   * same block meanwhile is harmless (both files are whole and equal).
   */
  public void write(ObjectIdentity id, long index, byte[] payload) throws IOException {
    try (Fill fill = startFill(id, index, payload.length)) {
      fill.write(payload, 0, payload.length);
      fill.commit();
    }
  }

  /**
   * Starts filling a block as its bytes arrive: the temporary file is created (0600, a name no reader looks up) and
   * given the block's header now, the payload is appended by {@link Fill#write} while the ranged GET streams it, and
   * {@link Fill#commit} writes the checksum and renames the file over the block's name. A fill that is closed
   * without commit (a failed GET) deletes its file; one whose JVM dies leaves it to the sweep of stale temporary
   * files. Either way no reader ever sees it.
   */
  public Fill startFill(ObjectIdentity id, long index, int length) throws IOException {
    Path path = blockPath(id, index);
    Path parent = path.getParent();
    if (!Files.isDirectory(parent)) {
      createPrivateDir(parent);
    }
    Path temp = parent.resolve(path.getFileName() + "." + UUID.randomUUID() + TEMP_SUFFIX);
    FileAttribute<Set<PosixFilePermission>> perms = PosixFilePermissions.asFileAttribute(OWNER_FILE);
    FileChannel ch = FileChannel.open(temp, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
        perms);
    Fill fill = new Fill(path, temp, ch, length);
    try {
      fill.begin(BlockFormat.header(id, blockSize, index, length));
    } catch (IOException | RuntimeException e) {
      fill.close();
      throw e;
    }
    return fill;
  }

  /** One block being written (see {@link #startFill}). Not thread-safe. */
  public final class Fill implements AutoCloseable {
    private final Path path;
    private final Path temp;
    private final FileChannel channel;
    private final int length;
    private final CRC32C crc = new CRC32C();
    private long crcPosition;
    private long written;
    private boolean done;

    private Fill(Path path, Path temp, FileChannel channel, int length) {
      this.path = path;
      this.temp = temp;
      this.channel = channel;
      this.length = length;
    }

    private void begin(byte[] header) throws IOException {
      crc.update(header);
      writeFully(ByteBuffer.wrap(header));
      crcPosition = header.length;
      writeFully(ByteBuffer.allocate(4)); // the checksum's place, written by commit
    }

    /** Appends payload bytes. */
    public void write(byte[] b, int off, int len) throws IOException {
      if (written + len > length) {
        throw new IOException(temp + ": " + (written + len) + " payload bytes for a block of " + length);
      }
      crc.update(b, off, len);
      writeFully(ByteBuffer.wrap(b, off, len));
      written += len;
    }

    /** Writes the checksum and renames the whole file over the block's name. */
    public void commit() throws IOException {
      if (written != length) {
        throw new IOException(temp + ": " + written + " payload bytes of " + length + ", not committed");
      }
      ByteBuffer c = ByteBuffer.allocate(4).putInt(0, (int) crc.getValue());
      while (c.hasRemaining()) {
        channel.write(c, crcPosition + c.position());
      }
      long fileSize = channel.size();
      channel.close();
      Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE);
      done = true;
      estimatedSize.addAndGet(fileSize);
      long sinceScan = writtenSinceScan.addAndGet(fileSize);
      if (estimatedSize.get() > maxSize || sinceScan > maxSize / 16) {
        scan();
      }
    }

    private void writeFully(ByteBuffer b) throws IOException {
      while (b.hasRemaining()) {
        channel.write(b);
      }
    }

    /** Deletes the temporary file unless committed. */
    @Override
    public void close() throws IOException {
      if (done) {
        return;
      }
      done = true;
      try {
        channel.close();
      } finally {
        Files.deleteIfExists(temp);
      }
    }
  }

  /** This JVM's estimate of the directory's size in bytes (exact after a scan, plus its own writes since). */
  public long estimatedSize() {
    return estimatedSize.get();
  }

  /**
   * Scans the directory: deletes stale temporary files, measures the blocks and, over the bound, deletes the least
   * recently used down to 90% of it. One scan at a time per JVM; other JVMs may scan at once (each tolerates files
   * vanishing under it).
   */
  public void scan() throws IOException {
    synchronized (scanLock) {
      writtenSinceScan.set(0);
      List<FileEntry> entries = new ArrayList<>();
      long total = 0;
      long now = System.currentTimeMillis();
      for (FileEntry f : list(blocks)) {
        if (f.temp) {
          if (now - f.mtime > STALE_TEMP_MS) {
            Files.deleteIfExists(f.path); // a dead fill's
          }
        } else {
          entries.add(f);
          total += f.size;
        }
      }
      if (total > maxSize) {
        long target = maxSize / 10 * 9;
        entries.sort(Comparator.comparingLong((FileEntry e) -> e.mtime).thenComparing(e -> e.path));
        int deleted = 0;
        for (FileEntry e : entries) {
          if (total <= target) {
            break;
          }
          if (Files.deleteIfExists(e.path)) {
            statistics.get().evicted(e.size);
            deleted++;
          }
          total -= e.size; // gone either way: deleted by us or by another JVM's eviction
        }
        LOG.debug("Read cache {}: evicted {} blocks, {} bytes left (bound {})", dir, deleted, total, maxSize);
      }
      estimatedSize.set(total);
    }
  }

  /**
   * What the directory at {@code dir} holds now, read only: nothing is created, evicted or swept (a missing
   * directory is reported as absent).
   *
   * @param key the setting that named the directory, for a refusal's message
   * @throws CacheDirectoryException if the directory is not this user's alone
   */
  public static CacheContents contents(Path dir, String key) throws IOException {
    Path blocks = dir.resolve(ReadCacheConstants.BLOCKS_SUBDIR);
    if (!Files.exists(dir)) {
      return new CacheContents(dir, false, 0, 0, 0, 0, null, null);
    }
    ensurePrivateDir(dir, key, false);
    if (!Files.exists(blocks)) {
      return new CacheContents(dir, true, 0, 0, 0, 0, null, null);
    }
    ensurePrivateDir(blocks, key, false);
    return summary(dir, list(blocks));
  }

  /**
   * Deletes every block file of the directory at {@code dir}, and the temporary files of dead fills (older than 10
   * minutes); returns what was deleted. Safe while other JVMs read and fill: a reader holds a block file open while it
   * reads it whole, so deleting the name never takes bytes from under it, and a reader that finds no file fetches the
   * block again (a miss, never a partial block); a fill in flight writes a temporary file, left alone here, and
   * renames it into place whole afterwards. Directories are kept (a fill creates its temporary file in one).
   *
   * @throws CacheDirectoryException if the directory is not this user's alone
   */
  public static CacheContents clear(Path dir, String key) throws IOException {
    Path blocks = dir.resolve(ReadCacheConstants.BLOCKS_SUBDIR);
    if (!Files.exists(dir)) {
      return new CacheContents(dir, false, 0, 0, 0, 0, null, null);
    }
    ensurePrivateDir(dir, key, false);
    if (!Files.exists(blocks)) {
      return new CacheContents(dir, true, 0, 0, 0, 0, null, null);
    }
    ensurePrivateDir(blocks, key, false);
    long now = System.currentTimeMillis();
    List<FileEntry> deleted = new ArrayList<>();
    for (FileEntry f : list(blocks)) {
      if (f.temp && now - f.mtime <= STALE_TEMP_MS) {
        continue; // a fill in flight: it renames its whole block into place, and is removed by the next clear
      }
      if (Files.deleteIfExists(f.path)) {
        deleted.add(f);
      }
    }
    LOG.debug("Read cache {}: cleared {} files", dir, deleted.size());
    return summary(dir, deleted);
  }

  private static CacheContents summary(Path dir, List<FileEntry> files) {
    long blockCount = 0;
    long blockBytes = 0;
    long temps = 0;
    long tempBytes = 0;
    long oldest = Long.MAX_VALUE;
    long newest = Long.MIN_VALUE;
    for (FileEntry f : files) {
      if (f.temp) {
        temps++;
        tempBytes += f.size;
      } else {
        blockCount++;
        blockBytes += f.size;
        oldest = Math.min(oldest, f.mtime);
        newest = Math.max(newest, f.mtime);
      }
    }
    return new CacheContents(dir, true, blockCount, blockBytes, temps, tempBytes,
        blockCount == 0 ? null : Instant.ofEpochMilli(oldest), blockCount == 0 ? null : Instant.ofEpochMilli(newest));
  }

  /** The block and temporary files under {@code blocks}; files and directories vanishing meanwhile are skipped. */
  private static List<FileEntry> list(Path blocks) throws IOException {
    List<FileEntry> out = new ArrayList<>();
    try (DirectoryStream<Path> subdirs = Files.newDirectoryStream(blocks)) {
      for (Path sub : subdirs) {
        if (!Files.isDirectory(sub)) {
          continue;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(sub)) {
          for (Path f : files) {
            String name = f.getFileName().toString();
            boolean temp = name.endsWith(TEMP_SUFFIX);
            if (!temp && !name.endsWith(BLOCK_SUFFIX)) {
              continue;
            }
            BasicFileAttributes a;
            try {
              a = Files.readAttributes(f, BasicFileAttributes.class);
            } catch (NoSuchFileException gone) {
              continue; // renamed into place, evicted or cleared by another JVM
            }
            out.add(new FileEntry(f, a.size(), a.lastModifiedTime().toMillis(), temp));
          }
        } catch (NoSuchFileException gone) {
          // removed by someone else: nothing in it
        }
      }
    }
    return out;
  }

  private Optional<BlockView> corrupt(Path path, ObjectIdentity id, long index, String why) throws IOException {
    statistics.get().checksumFailure();
    LOG.warn("Read cache: block {} of {} in {} failed its check ({}): deleted, fetched again", index, id, path, why);
    Files.deleteIfExists(path);
    return Optional.empty();
  }

  /** The eviction order: a hit makes a block the most recently used. */
  private static void touch(Path path) throws IOException {
    try {
      Files.setLastModifiedTime(path, FileTime.fromMillis(System.currentTimeMillis()));
    } catch (NoSuchFileException evicted) {
      // evicted by another JVM after we read it: the bytes read were whole and checked
    }
  }

  /** Creates the cache directory (0700, and its parents) where missing, and checks that it is this user's alone. */
  static void ensureCacheDir(Path dir, String key) throws IOException {
    if (dir.getParent() != null) {
      Files.createDirectories(dir.getParent());
    }
    ensurePrivateDir(dir, key);
  }

  private static void ensurePrivateDir(Path d, String key) throws IOException {
    ensurePrivateDir(d, key, true);
  }

  /**
   * Checks that {@code d} is a directory of this user's alone (creating it 0700 first when {@code create} and
   * missing).
   *
   * @throws CacheDirectoryException naming the directory and {@code key} when it is not
   */
  static void ensurePrivateDir(Path d, String key, boolean create) throws IOException {
    if (create && !Files.exists(d)) {
      createPrivateDir(d);
    }
    PosixFileAttributes a;
    try {
      a = Files.readAttributes(d, PosixFileAttributes.class);
    } catch (UnsupportedOperationException e) {
      throw new CacheDirectoryException(d.toString(), "open read cache (" + key + ")",
          "the file system has no POSIX permissions, so it cannot be kept to one user");
    }
    if (!a.isDirectory()) {
      throw new CacheDirectoryException(d.toString(), "open read cache (" + key + ")", "not a directory");
    }
    UserPrincipal me = d.getFileSystem().getUserPrincipalLookupService()
        .lookupPrincipalByName(System.getProperty("user.name"));
    if (!a.owner().equals(me)) {
      throw new CacheDirectoryException(d.toString(), "open read cache (" + key + ")", "owned by "
          + a.owner().getName() + ", not by " + me.getName() + ": choose a directory of your own");
    }
    Set<PosixFilePermission> open = EnumSet.noneOf(PosixFilePermission.class);
    open.addAll(a.permissions());
    open.retainAll(NOT_OWNER);
    if (!open.isEmpty()) {
      throw new CacheDirectoryException(d.toString(), "open read cache (" + key + ")", "permissions "
          + PosixFilePermissions.toString(a.permissions()) + " let other users in (the group or others may "
          + open + "): make it rwx------ (chmod 700) or choose another directory");
    }
  }

  /** The permissions of every file of the cache, 0600, as a creation attribute. */
  static FileAttribute<Set<PosixFilePermission>> ownerOnlyFile() {
    return PosixFilePermissions.asFileAttribute(OWNER_FILE);
  }

  static void createPrivateDir(Path d) throws IOException {
    try {
      Files.createDirectory(d, PosixFilePermissions.asFileAttribute(OWNER_DIR));
    } catch (FileAlreadyExistsException raced) {
      // another JVM made it first
    }
  }

  private static final class FileEntry {
    final Path path;
    final long size;
    final long mtime;
    final boolean temp;

    FileEntry(Path path, long size, long mtime, boolean temp) {
      this.path = path;
      this.size = size;
      this.mtime = mtime;
      this.temp = temp;
    }
  }
}
