package io.objectcommit.staging;

import static io.objectcommit.staging.StagingConstants.*;

import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.config.ConfigReader;
import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;

/**
 * The staging committer's settings for one bucket, read once from the configuration; a bad value fails at once,
 * naming the key. Immutable.
 */
public final class StagingOptions {

  /** The committer variants. */
  public enum Variant {
    /** Conflicts are decided for the whole destination. */
    DIRECTORY,
    /** Conflicts are decided for each partition directory written. */
    PARTITIONED
  }

  private final Variant variant;
  private final ConflictMode conflictMode;
  private final List<File> bufferDirs;
  private final long bufferMinFree;
  private final long bufferMaxAgeMs;
  private final long partSize;
  private final long inlineTaskBytes;
  private final long inlineFileBytes;
  private final int uploadThreads;
  private final int commitThreads;
  private final int cachedUploads;
  private final int successFilenamesLimit;
  private final boolean sweepUploads;
  private final int taskCount;
  private final List<String> replacePaths;
  private final boolean dynamicPartitionOverwrite;

  private StagingOptions(ConfigReader r, Variant forced) {
    this.variant = forced != null ? forced
        : Variant.valueOf(r.getChoice(COMMITTER, COMMITTER_DEFAULT, "directory", "partitioned")
            .toUpperCase(Locale.ROOT));
    this.conflictMode = ConflictMode.parse(r.get(CONFLICT_MODE, CONFLICT_MODE_DEFAULT), r.effectiveKey(CONFLICT_MODE));
    String dirs = r.get(BUFFER_DIRS, BUFFER_DIRS_DEFAULT);
    List<File> list = new ArrayList<>();
    if (dirs.isEmpty()) {
      list.add(new File(r.get(HADOOP_TMP_DIR, System.getProperty("java.io.tmpdir")), "objectcommit-staging"));
    } else {
      for (String d : dirs.split(",")) {
        if (!d.trim().isEmpty()) {
          list.add(new File(d.trim()));
        }
      }
    }
    if (list.isEmpty()) {
      throw new IllegalArgumentException("Invalid value '" + dirs + "' of " + r.effectiveKey(BUFFER_DIRS)
          + ": expected comma-separated local directories");
    }
    this.bufferDirs = Collections.unmodifiableList(list);
    this.bufferMinFree = r.getBytes(BUFFER_MIN_FREE, BUFFER_MIN_FREE_DEFAULT, 0);
    this.bufferMaxAgeMs = r.getDurationMs(BUFFER_MAX_AGE, BUFFER_MAX_AGE_DEFAULT_MS, 60_000L);
    long s3aPart = r.getBytes(StoreConstants.MULTIPART_SIZE, StoreConstants.MULTIPART_SIZE_DEFAULT,
        StoreConstants.MULTIPART_MIN_SIZE);
    this.partSize = r.getBytes(PART_SIZE, s3aPart, StoreConstants.MULTIPART_MIN_SIZE);
    this.inlineTaskBytes = r.getBytes(INLINE_TASK_BYTES, INLINE_TASK_BYTES_DEFAULT, 0);
    if (inlineTaskBytes > INLINE_TASK_BYTES_MAX) {
      throw new IllegalArgumentException("Invalid value '" + r.get(INLINE_TASK_BYTES, "") + "' of "
          + r.effectiveKey(INLINE_TASK_BYTES) + ": at most " + INLINE_TASK_BYTES_MAX + " bytes (16M)");
    }
    this.inlineFileBytes = r.getBytes(INLINE_FILE_BYTES, INLINE_FILE_BYTES_DEFAULT, 0);
    this.uploadThreads = r.getInt(UPLOAD_THREADS, UPLOAD_THREADS_DEFAULT, 1, 1024);
    this.commitThreads = r.getInt(COMMIT_THREADS, COMMIT_THREADS_DEFAULT, 1, 1024);
    this.cachedUploads = r.getInt(COMMIT_CACHED_UPLOADS, COMMIT_CACHED_UPLOADS_DEFAULT, 0, Integer.MAX_VALUE);
    this.successFilenamesLimit = r.getInt(SUCCESS_FILENAMES_LIMIT, SUCCESS_FILENAMES_LIMIT_DEFAULT, 0, 1_000_000);
    this.sweepUploads = r.getBoolean(SWEEP_UPLOADS, SWEEP_UPLOADS_DEFAULT);
    this.taskCount = r.getInt(TASK_COUNT, TASK_COUNT_DEFAULT, 0, Integer.MAX_VALUE);
    // internal keys, set by our Spark protocol in the job's configuration (never per bucket)
    Configuration conf = r.configuration();
    List<String> rp = new ArrayList<>();
    if (conf.get(REPLACE_PATHS) != null) {
      String[] paths = conf.getTrimmedStrings(REPLACE_PATHS);
      if (paths.length == 0) {
        rp.add("");
      }
      Collections.addAll(rp, paths);
    }
    this.replacePaths = Collections.unmodifiableList(rp);
    this.dynamicPartitionOverwrite = r.getBoolean(DYNAMIC_PARTITION_OVERWRITE, false);
  }

  /** Reads the options for {@code bucket}; {@code forced} fixes the variant (null: {@link StagingConstants#COMMITTER}). */
  public static StagingOptions from(Configuration conf, String bucket, Variant forced) {
    return new StagingOptions(new ConfigReader(conf, bucket), forced);
  }

  public Variant variant() {
    return variant;
  }

  public ConflictMode conflictMode() {
    return conflictMode;
  }

  public List<File> bufferDirs() {
    return bufferDirs;
  }

  public long bufferMinFree() {
    return bufferMinFree;
  }

  /** Local job directories older than this without a live attempt are removed at task start. */
  public long bufferMaxAgeMs() {
    return bufferMaxAgeMs;
  }

  public long partSize() {
    return partSize;
  }

  /** File bytes a task record may carry (small files written by job commit with one PUT each); 0: none. */
  public long inlineTaskBytes() {
    return inlineTaskBytes;
  }

  /** The largest file a task record carries (see {@link #inlineTaskBytes()}). */
  public long inlineFileBytes() {
    return inlineFileBytes;
  }

  public int uploadThreads() {
    return uploadThreads;
  }

  public int commitThreads() {
    return commitThreads;
  }

  public int cachedUploads() {
    return cachedUploads;
  }

  public int successFilenamesLimit() {
    return successFilenamesLimit;
  }

  public boolean sweepUploads() {
    return sweepUploads;
  }

  /** The task count from {@link StagingConstants#TASK_COUNT}, 0 when unknown. */
  public int taskCount() {
    return taskCount;
  }

  /** Paths relative to the destination to clear at job commit (Spark's Overwrite through our protocol). */
  public List<String> replacePaths() {
    return replacePaths;
  }

  public boolean dynamicPartitionOverwrite() {
    return dynamicPartitionOverwrite;
  }

  @Override
  public String toString() {
    return "variant=" + variant + ", conflict-mode=" + conflictMode + ", buffer dirs=" + bufferDirs + ", part size="
        + partSize + ", inline task bytes=" + inlineTaskBytes + ", inline file bytes=" + inlineFileBytes
        + ", upload threads=" + uploadThreads + ", commit threads=" + commitThreads
        + (dynamicPartitionOverwrite ? ", dynamic partition overwrite" : "")
        + (replacePaths.isEmpty() ? "" : ", replacing " + replacePaths);
  }
}
