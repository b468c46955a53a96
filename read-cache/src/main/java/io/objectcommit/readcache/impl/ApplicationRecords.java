package io.objectcommit.readcache.impl;

import io.objectcommit.readcache.ReadCacheConstants;
import io.objectcommit.readcache.ReadCacheStatistics;
import io.objectcommit.readcache.files.ApplicationUsage;
import io.objectcommit.store.files.CorruptRecordException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JVM's application records in a cache directory ({@link ReadCacheConstants#APPLICATIONS_SUBDIR}): the
 * statistics of each application this JVM read for ({@link #current()}), written to one file per application and
 * JVM ({@link ApplicationUsage}) at most every {@link ReadCacheConstants#RECORD_INTERVAL_MS} ms
 * ({@link #maybeWrite()}) and whenever asked ({@link #write()}: the file system's close, the JVM's exit, a new
 * application seen). Two caches of one directory in a JVM (other block sizes) keep records of their own. A file is replaced whole (a temporary file, 0600, renamed over it), so a reader sees the last
 * record or the one before, never part of one; only this JVM writes its files, so JVMs never contend. Old records
 * are deleted when a JVM opens the directory ({@link #prune}). Thread-safe.
 */
public final class ApplicationRecords {

  private static final Logger LOG = LoggerFactory.getLogger(ApplicationRecords.class);

  static final String SUFFIX = ".json";
  private static final String TEMP_SUFFIX = ".tmp";

  private final Path folder;
  private final ReadCacheStatistics jvmStatistics;
  private final Supplier<Optional<String>> applicationId;
  private final Supplier<Optional<String>> applicationName;
  private final String jvm;
  private final String host;
  private final long intervalMs;
  /** Numbers the records' owners in this JVM: two caches of one directory (other settings) write apart. */
  private static final AtomicInteger INSTANCES = new AtomicInteger();

  private final int instance = INSTANCES.incrementAndGet();
  private final Map<String, Entry> entries = new LinkedHashMap<>();
  private volatile Entry last;
  private long lastWrite;
  private boolean failureLogged;

  /**
   * @param dir the cache directory (checked by the caller)
   * @param jvmStatistics the JVM's statistics, parent of each application's
   * @param applicationId the application of the current thread ({@code spark.app.id}); empty outside Spark
   * @param applicationName its name, where known
   * @param jvm this JVM's id, unique on the host ({@link #jvmId()})
   */
  ApplicationRecords(Path dir, ReadCacheStatistics jvmStatistics, Supplier<Optional<String>> applicationId,
      Supplier<Optional<String>> applicationName, String jvm, long intervalMs) {
    this.folder = dir.resolve(ReadCacheConstants.APPLICATIONS_SUBDIR);
    this.jvmStatistics = jvmStatistics;
    this.applicationId = applicationId;
    this.applicationName = applicationName;
    this.jvm = jvm;
    this.host = HostName.NAME;
    this.intervalMs = intervalMs;
  }

  /**
   * The records of this JVM in {@code dir}: checks (or creates) the {@link ReadCacheConstants#APPLICATIONS_SUBDIR}
   * folder, owner-only like the blocks', and deletes old records ({@link #prune}).
   *
   * @param key the setting that named the directory, for a refusal's message
   * @throws io.objectcommit.readcache.CacheDirectoryException if the folder is not this user's alone
   */
  public static ApplicationRecords open(Path dir, String key, ReadCacheStatistics jvmStatistics,
      Supplier<Optional<String>> applicationId, Supplier<Optional<String>> applicationName, String jvm,
      long intervalMs) throws IOException {
    CacheDirectory.ensureCacheDir(dir, key);
    CacheDirectory.ensurePrivateDir(dir.resolve(ReadCacheConstants.APPLICATIONS_SUBDIR), key, true);
    prune(dir, System.currentTimeMillis());
    return new ApplicationRecords(dir, jvmStatistics, applicationId, applicationName, jvm, intervalMs);
  }

  /** This JVM's id: {@code <pid>-<start time in ms>} (a pid alone is reused). */
  public static String jvmId() {
    return ProcessHandle.current().pid() + "-" + ManagementFactory.getRuntimeMXBean().getStartTime();
  }

  /**
   * The statistics of the application the current thread reads for ({@code jvm-<pid>} outside Spark), created on
   * first use. When a new application appears, the records of the others are written (an application that ended,
   * in a JVM that runs another, has its last counts on disk).
   */
  public ReadCacheStatistics current() {
    String app = applicationId.get().orElseGet(() -> "jvm-" + ProcessHandle.current().pid());
    Entry e = last;
    if (e != null && e.application.equals(app)) {
      return e.statistics;
    }
    boolean another;
    synchronized (this) {
      e = entries.get(app);
      another = e == null && !entries.isEmpty();
      if (e == null) {
        e = new Entry(app, applicationName.get().orElse(null), new ReadCacheStatistics(jvmStatistics),
            System.currentTimeMillis());
        entries.put(app, e);
      }
      last = e;
    }
    if (another) {
      write();
    }
    return e.statistics;
  }

  /** Writes the records that changed if the last write was {@link ReadCacheConstants#RECORD_INTERVAL_MS} ago. */
  public void maybeWrite() {
    synchronized (this) {
      if (System.currentTimeMillis() - lastWrite < intervalMs) {
        return;
      }
    }
    write();
  }

  /**
   * Writes every record that changed since it was last written. A failure (a full disk) is logged once and never
   * fails a read: the statistics are still counted in memory.
   */
  public synchronized void write() {
    lastWrite = System.currentTimeMillis();
    for (Entry e : entries.values()) {
      Map<String, Long> now = e.statistics.snapshot();
      if (now.equals(e.written)) {
        continue;
      }
      try {
        writeRecord(e.usage(now, host, jvm, lastWrite));
        e.written = now;
      } catch (IOException | RuntimeException ex) {
        if (!failureLogged) {
          failureLogged = true;
          LOG.warn("Read cache: cannot write the statistics of {} to {} ({}); they are still counted in this JVM",
              e.application, folder, ex.toString());
        }
      }
    }
  }

  private void writeRecord(ApplicationUsage u) throws IOException {
    if (!Files.isDirectory(folder)) {
      CacheDirectory.createPrivateDir(folder);
    }
    byte[] bytes = ApplicationUsage.CODEC.toBytes(u);
    Path target = folder.resolve(fileName(u.application, u.jvm, instance));
    Path temp = folder.resolve(target.getFileName() + "." + UUID.randomUUID() + TEMP_SUFFIX);
    try (FileChannel ch = FileChannel.open(temp, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
        CacheDirectory.ownerOnlyFile())) {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      while (b.hasRemaining()) {
        ch.write(b);
      }
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
  }

  /**
   * {@code <application>.<jvm>-<n>.json} ({@code n} numbers the caches of the directory in the JVM), with every
   * character but letters, digits, '-' and '_' made '_'.
   */
  static String fileName(String application, String jvm, int instance) {
    return safe(application) + "." + safe(jvm) + "-" + instance + SUFFIX;
  }

  private static String safe(String s) {
    return s.replaceAll("[^A-Za-z0-9_-]", "_");
  }

  /**
   * Deletes the records of {@code dir} not updated for {@link ReadCacheConstants#RECORD_MAX_AGE_MS}, then the least
   * recently updated beyond the {@link ReadCacheConstants#RECORD_MAX_FILES} newest, and temporary files of writes
   * a dead JVM left. Returns how many files were deleted. Files other JVMs delete meanwhile are skipped.
   */
  public static int prune(Path dir, long now) throws IOException {
    Path folder = dir.resolve(ReadCacheConstants.APPLICATIONS_SUBDIR);
    if (!Files.isDirectory(folder)) {
      return 0;
    }
    List<Path> records = new ArrayList<>();
    Map<Path, Long> mtimes = new LinkedHashMap<>();
    int deleted = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(folder)) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        long mtime;
        try {
          mtime = Files.getLastModifiedTime(f).toMillis();
        } catch (NoSuchFileException gone) {
          continue;
        }
        if (name.endsWith(TEMP_SUFFIX)) {
          if (now - mtime > CacheDirectory.STALE_TEMP_MS && Files.deleteIfExists(f)) {
            deleted++;
          }
        } else if (name.endsWith(SUFFIX)) {
          if (now - mtime > ReadCacheConstants.RECORD_MAX_AGE_MS) {
            if (Files.deleteIfExists(f)) {
              deleted++;
            }
          } else {
            records.add(f);
            mtimes.put(f, mtime);
          }
        }
      }
    }
    if (records.size() > ReadCacheConstants.RECORD_MAX_FILES) {
      records.sort(Comparator.comparingLong((Path p) -> mtimes.get(p)).thenComparing(p -> p));
      for (Path f : records.subList(0, records.size() - ReadCacheConstants.RECORD_MAX_FILES)) {
        if (Files.deleteIfExists(f)) {
          deleted++;
        }
      }
    }
    if (deleted > 0) {
      LOG.debug("Read cache {}: deleted {} old application records", dir, deleted);
    }
    return deleted;
  }

  /**
   * The records of {@code dir} and the files that are not records (each with why), read only.
   *
   * @param key the setting that named the directory, for a refusal's message
   * @throws io.objectcommit.readcache.CacheDirectoryException if the folder is not this user's alone
   */
  public static Loaded load(Path dir, String key) throws IOException {
    Path folder = dir.resolve(ReadCacheConstants.APPLICATIONS_SUBDIR);
    List<ApplicationUsage> records = new ArrayList<>();
    List<String> unreadable = new ArrayList<>();
    if (!Files.exists(folder)) {
      return new Loaded(records, unreadable);
    }
    CacheDirectory.ensurePrivateDir(folder, key, false);
    List<Path> names = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*" + SUFFIX)) {
      files.forEach(names::add);
    }
    names.sort(Comparator.naturalOrder());
    for (Path f : names) {
      byte[] bytes;
      try {
        bytes = Files.readAllBytes(f);
      } catch (NoSuchFileException gone) {
        continue; // pruned by another JVM
      }
      try {
        records.add(ApplicationUsage.CODEC.fromBytes(bytes, f.toString()));
      } catch (CorruptRecordException e) {
        unreadable.add(e.getMessage());
      }
    }
    return new Loaded(records, unreadable);
  }

  /** The records read from a directory, and what could not be read. */
  public static final class Loaded {
    private final List<ApplicationUsage> records;
    private final List<String> unreadable;

    Loaded(List<ApplicationUsage> records, List<String> unreadable) {
      this.records = List.copyOf(records);
      this.unreadable = List.copyOf(unreadable);
    }

    /** One per application and JVM, in file-name order. */
    public List<ApplicationUsage> records() {
      return records;
    }

    /** Why each file that is not a record was refused. */
    public List<String> unreadable() {
      return unreadable;
    }
  }

  /** One application's statistics in this JVM, and what was last written of them. */
  private static final class Entry {
    final String application;
    final String name;
    final ReadCacheStatistics statistics;
    final long started;
    Map<String, Long> written;

    Entry(String application, String name, ReadCacheStatistics statistics, long started) {
      this.application = application;
      this.name = name;
      this.statistics = statistics;
      this.started = started;
    }

    ApplicationUsage usage(Map<String, Long> counters, String host, String jvm, long now) {
      ApplicationUsage u = new ApplicationUsage();
      u.application = application;
      u.applicationName = name;
      u.host = host;
      u.jvm = jvm;
      u.started = started;
      u.updated = Math.max(now, started);
      u.hits = counters.get(ReadCacheStatistics.HITS);
      u.misses = counters.get(ReadCacheStatistics.MISSES);
      u.bytesFromCache = counters.get(ReadCacheStatistics.BYTES_FROM_CACHE);
      u.bytesFromStore = counters.get(ReadCacheStatistics.BYTES_FROM_STORE);
      u.requestsSaved = u.hits;
      u.evictions = counters.get(ReadCacheStatistics.EVICTIONS);
      u.evictedBytes = counters.get(ReadCacheStatistics.EVICTED_BYTES);
      u.checksumFailures = counters.get(ReadCacheStatistics.CHECKSUM_FAILURES);
      u.writeFailures = counters.get(ReadCacheStatistics.WRITE_FAILURES);
      return u;
    }
  }

  /** The host's name, looked up once (it may ask DNS). */
  private static final class HostName {
    static final String NAME = lookUp();

    private static String lookUp() {
      try {
        return InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException | SecurityException e) {
        return "localhost";
      }
    }
  }
}
