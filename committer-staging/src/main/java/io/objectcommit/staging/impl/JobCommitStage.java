package io.objectcommit.staging.impl;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.commit.CommitterStatistics;
import io.objectcommit.commit.ForeignTaskRecordException;
import io.objectcommit.commit.MissingTaskRecordException;
import io.objectcommit.staging.CommitConflictException;
import io.objectcommit.staging.ConflictMode;
import io.objectcommit.staging.StagingConstants;
import io.objectcommit.staging.StagingOptions;
import io.objectcommit.staging.files.PendingFile;
import io.objectcommit.staging.files.StagingTaskRecord;
import io.objectcommit.store.ListPage;
import io.objectcommit.store.Listings;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Parallel;
import io.objectcommit.store.Payload;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.WriteCondition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Job commit, in order:
 * <ol>
 *   <li><b>load</b>: read the task records by index (0 first: it tells how many there are), validate them, count
 *       files, collect the partitions written; a missing or foreign record fails the commit before anything is
 *       visible. Records are kept for the second pass only while they hold at most
 *       {@code fs.objectcommit.staging.commit.cached-uploads} files and 64 MiB of carried file data. When the commit
 *       protocol handed over every task's record ({@code spark.StagingCommitProtocol}), one LIST of the job's records
 *       replaces the reads: a record whose listed ETag is the committed one is taken from the hand-over;</li>
 *   <li><b>resolve conflicts</b>: {@code fail} checks that the destination (or each partition written) holds no
 *       data; {@code replace}, Spark's Overwrite and dynamic partition overwrite delete the old objects there,
 *       now that every new file is known to be uploaded;</li>
 *   <li><b>complete</b> every upload and write every file a record carries (one PUT each), in parallel, a window
 *       of records at a time;</li>
 *   <li>abort any upload of this job no record names (attempts that died during task commit), write
 *       {@code _SUCCESS} (with the number of uploads so swept), delete the task records.</li>
 * </ol>
 */
public final class JobCommitStage {

  private static final Logger LOG = LoggerFactory.getLogger(JobCommitStage.class);

  /** Carried file data (small files in task records) kept in memory between the two passes: 64 MiB. */
  static final long CACHED_INLINE_BYTES = 64L << 20;

  /** What job commit did: counters and the first file names, never the whole file list. */
  public static final class Summary {
    private final Map<String, Long> statistics;
    private final List<String> filenames;
    private final Set<String> partitions;

    Summary(Map<String, Long> statistics, List<String> filenames, Set<String> partitions) {
      this.statistics = Collections.unmodifiableMap(new TreeMap<>(statistics));
      this.filenames = Collections.unmodifiableList(filenames);
      this.partitions = Collections.unmodifiableSet(partitions);
    }

    public Map<String, Long> statistics() {
      return statistics;
    }

    public long get(String statistic) {
      return statistics.getOrDefault(statistic, 0L);
    }

    /** The first file names committed (final keys), at most the configured limit. */
    public List<String> filenames() {
      return filenames;
    }

    /** The partition directories written (relative, {@code ""} for the destination itself). */
    public Set<String> partitions() {
      return partitions;
    }
  }

  /** Writes {@code _SUCCESS} from a summary. */
  public interface SuccessWriter {
    void write(ObjectStore store, JobLayout layout, Summary summary) throws IOException;
  }

  private final ObjectStore store;
  private final JobLayout layout;
  private final StagingOptions options;
  private final Map<String, CommittedTaskRecord> handedOver;
  private final SuccessWriter successWriter;
  private volatile boolean completionStarted;

  /**
   * @param handedOver the records the commit protocol carried from the committed tasks, by key (empty: none; a record
   *     of another job is ignored)
   */
  public JobCommitStage(ObjectStore store, JobLayout layout, StagingOptions options,
      Map<String, CommittedTaskRecord> handedOver, SuccessWriter successWriter) {
    this.store = store;
    this.layout = layout;
    this.options = options;
    this.handedOver = Map.copyOf(handedOver); // no copy when the caller's map is already an immutable one
    this.successWriter = successWriter;
  }

  /** True once the first upload may have been completed (from then on a failure leaves files visible). */
  public boolean completionStarted() {
    return completionStarted;
  }

  private int window() {
    return Math.max(64, options.commitThreads() * 4);
  }

  private boolean needsPartitions() {
    return options.variant() == StagingOptions.Variant.PARTITIONED || options.dynamicPartitionOverwrite();
  }

  public Summary commit() throws IOException {
    long start = System.currentTimeMillis();
    Map<String, Long> stats = new TreeMap<>();
    List<String> filenames = new ArrayList<>();
    Set<String> partitions = new TreeSet<>();
    Set<String> nameIds = new LinkedHashSet<>();
    try (Parallel parallel = new Parallel("objectcommit-job-commit", options.commitThreads())) {
      Map<String, CommittedTaskRecord> unchanged = unchangedHandedOver();
      stats.put(CommitterStatistics.JOB_RECORDS_HANDED_OVER, (long) unchanged.size());
      TaskRecords records = new TaskRecords(store, layout, parallel, unchanged);

      // 1. load and validate every record; cache what fits
      StagingTaskRecord first = records.load(0);
      int count = first != null && first.taskCount > 0 ? first.taskCount : options.taskCount();
      if (first == null) {
        throw new MissingTaskRecordException(store.pathOf(layout.taskRecordKey(0)), layout.jobId(), "0",
            "no task of this job was committed with the staging committer, or its record was deleted");
      }
      boolean countKnown = count > 0;
      if (!countKnown) {
        LOG.warn("Job {}: the task count is unknown (not run by Spark and {} unset): reading task records until the"
            + " first missing one", layout.jobId(), StagingConstants.TASK_COUNT);
      }
      List<StagingTaskRecord> cache = new ArrayList<>();
      long cachedUploads = 0;
      long cachedInline = 0;
      long inlineFiles = 0;
      boolean caching = true;
      long heldMax = 0;
      long files = 0;
      long bytes = 0;
      long taskMs = 0;
      int loaded = 0;
      int limit = countKnown ? count : Integer.MAX_VALUE;
      boolean ended = false;
      for (int lo = 0; lo < limit && !ended; lo += window()) {
        int hi = (int) Math.min((long) limit, (long) lo + window());
        List<StagingTaskRecord> win = lo == 0 ? withFirst(first, records.loadWindow(1, hi)) : records.loadWindow(lo, hi);
        long windowUploads = 0;
        for (int i = 0; i < win.size(); i++) {
          StagingTaskRecord r = win.get(i);
          int index = lo + i;
          if (r == null) {
            if (countKnown) {
              throw new MissingTaskRecordException(store.pathOf(layout.taskRecordKey(index)), layout.jobId(),
                  index + " of " + count, "");
            }
            ended = true;
            limit = index;
            continue;
          }
          if (ended) {
            throw new ForeignTaskRecordException(store.pathOf(layout.taskRecordKey(index)), "job " + layout.jobId()
                + " has a record of task " + index + " after a missing one (task " + limit + "); set "
                + StagingConstants.TASK_COUNT + " when the engine does not give the task count");
          }
          if (countKnown && r.taskCount != 0 && r.taskCount != count) {
            throw new ForeignTaskRecordException(store.pathOf(layout.taskRecordKey(index)), "task " + index
                + " says job " + layout.jobId() + " has " + r.taskCount + " tasks, task 0 says " + count);
          }
          loaded++;
          windowUploads += r.files.size();
          for (PendingFile f : r.files) {
            files++;
            bytes += f.length;
            inlineFiles += f.inline() ? 1 : 0;
            if (filenames.size() < options.successFilenamesLimit()) {
              filenames.add(layout.finalKey(f.path));
            }
            Sweep.collectNameIds(f.path, nameIds);
            if (needsPartitions()) {
              partitions.add(f.partition());
            }
          }
          taskMs += r.statistics.getOrDefault(CommitterStatistics.TASK_COMMIT_MS, 0L);
          if (caching && cachedUploads + r.files.size() <= options.cachedUploads()
              && cachedInline + r.inlineBytes() <= CACHED_INLINE_BYTES) {
            cache.add(r);
            cachedUploads += r.files.size();
            cachedInline += r.inlineBytes();
          } else {
            caching = false;
          }
        }
        heldMax = Math.max(heldMax, cachedUploads + windowUploads);
      }
      int tasks = loaded;
      stats.put(CommitterStatistics.JOB_TASKS, (long) tasks);
      stats.put(CommitterStatistics.FILES_COMMITTED, files);
      stats.put(CommitterStatistics.BYTES_COMMITTED, bytes);
      stats.put(CommitterStatistics.JOB_FILES_INLINE, inlineFiles);
      stats.put(CommitterStatistics.TASK_COMMIT_MS_TOTAL, taskMs);
      if (needsPartitions()) {
        stats.put(CommitterStatistics.JOB_PARTITIONS, (long) partitions.size());
      }
      LOG.info("Job {}: {} tasks committed {} files ({} bytes) to {}: {} as pending uploads, {} in their records",
          layout.jobId(), tasks, files, bytes, layout, files - inlineFiles, inlineFiles);

      // 2. conflicts
      stats.put(CommitterStatistics.JOB_OLD_OBJECTS_DELETED, resolveConflicts(partitions));

      // 3. complete
      completionStarted = true;
      long reloaded = 0;
      long completed = 0;
      for (int lo = 0; lo < tasks; lo += window()) {
        int hi = Math.min(tasks, lo + window());
        List<StagingTaskRecord> win;
        if (hi <= cache.size()) {
          win = cache.subList(lo, hi);
        } else {
          win = new ArrayList<>();
          if (lo < cache.size()) {
            win.addAll(cache.subList(lo, cache.size()));
          }
          int from = Math.max(lo, cache.size());
          List<StagingTaskRecord> reread = records.loadWindow(from, hi);
          for (int i = 0; i < reread.size(); i++) {
            StagingTaskRecord r = reread.get(i);
            if (r == null) {
              throw new MissingTaskRecordException(store.pathOf(layout.taskRecordKey(from + i)), layout.jobId(),
                  String.valueOf(from + i), "the record disappeared during job commit; files completed so far are"
                  + " visible");
            }
            win.add(r);
            reloaded++;
          }
          long windowUploads = 0;
          for (StagingTaskRecord r : win) {
            windowUploads += r.files.size();
          }
          heldMax = Math.max(heldMax, cachedUploads + windowUploads);
        }
        completed += completeAll(parallel, win);
      }
      cache.clear();
      stats.put(CommitterStatistics.JOB_RECORDS_RELOADED, reloaded);
      stats.put(CommitterStatistics.JOB_UPLOADS_HELD_MAX, heldMax);
      if (completed != files) {
        throw new IOException("Job " + layout.jobId() + ": completed " + completed + " uploads of " + files);
      }

      // 4. sweep (every upload a record names is complete now: what is left of this job is an orphan),
      // _SUCCESS with the real count, then the records
      long swept = 0;
      if (options.sweepUploads()) {
        try {
          swept = Sweep.abortJobUploads(store, layout, nameIds, parallel);
        } catch (IOException | RuntimeException e) {
          LOG.warn("Job {}: its files are complete, but aborting its orphaned uploads failed ({}): {}",
              layout.jobId(), layout.leftoverUploadsHint(), e.toString());
          LOG.debug("sweep failure", e);
        }
      }
      stats.put(CommitterStatistics.JOB_UPLOADS_SWEPT, swept);
      stats.put(CommitterStatistics.JOB_COMMIT_MS, System.currentTimeMillis() - start);
      Summary summary = new Summary(stats, filenames, partitions);
      if (successWriter != null) {
        successWriter.write(store, layout, summary);
      }
      try {
        deleteRecords(tasks);
      } catch (IOException | RuntimeException e) {
        LOG.warn("Job {} is committed, but deleting its records under {} failed: {}", layout.jobId(),
            store.pathOf(layout.recordsPrefix()), e.toString());
        LOG.debug("record deletion failure", e);
      }
      LOG.info("Job {} committed: {}", layout.jobId(), stats);
      return summary;
    }
  }

  /**
   * The handed-over records job commit need not read: none unless the hand-over is complete (a record for every task
   * of the job, as record 0 counts them); then one LIST of the job's records (a request per 1,000 tasks) keeps those
   * whose ETag in the store is still the committed one. Records are created once and never changed, so a different
   * or missing ETag means the record was deleted (a job abort) or replaced: it is read, and a missing one fails the
   * commit before anything is visible, as without a hand-over.
   */
  private Map<String, CommittedTaskRecord> unchangedHandedOver() throws IOException {
    Map<String, CommittedTaskRecord> given = new HashMap<>();
    for (CommittedTaskRecord c : handedOver.values()) {
      if (c.key().startsWith(layout.recordsPrefix())) { // another job's record is never this job's business
        given.put(c.key(), c);
      }
    }
    CommittedTaskRecord zero = given.get(layout.taskRecordKey(0));
    int count = zero == null ? 0 : zero.record(StagingTaskRecord.CODEC, store.pathOf(zero.key())).taskCount;
    if (count <= 0) {
      return Map.of();
    }
    for (int i = 0; i < count; i++) {
      if (!given.containsKey(layout.taskRecordKey(i))) {
        return Map.of();
      }
    }
    Map<String, CommittedTaskRecord> unchanged = new HashMap<>();
    for (ObjectInfo o : Listings.objects(store, layout.recordsPrefix())) {
      CommittedTaskRecord c = given.get(o.key());
      if (c != null && c.etag().equals(o.etag())) {
        unchanged.put(o.key(), c);
      }
    }
    return unchanged;
  }

  private static List<StagingTaskRecord> withFirst(StagingTaskRecord first, List<StagingTaskRecord> rest) {
    List<StagingTaskRecord> all = new ArrayList<>(rest.size() + 1);
    all.add(first);
    all.addAll(rest);
    return all;
  }

  /** The prefixes (relative to the destination) to check or clear, and the old objects deleted. */
  private long resolveConflicts(Set<String> partitions) throws IOException {
    Set<String> replace = new LinkedHashSet<>();
    if (options.dynamicPartitionOverwrite()) {
      for (String p : partitions) {
        if (!p.isEmpty()) {
          replace.add(p);
        }
      }
    } else if (!options.replacePaths().isEmpty()) {
      replace.addAll(options.replacePaths());
    } else {
      Set<String> scope = options.variant() == StagingOptions.Variant.PARTITIONED ? partitions
          : Collections.singleton("");
      if (options.conflictMode() == ConflictMode.FAIL) {
        for (String p : scope) {
          String existing = firstExisting(p);
          if (existing != null) {
            throw new CommitConflictException(store.pathOf(existing), p, layout.jobId());
          }
        }
      } else if (options.conflictMode() == ConflictMode.REPLACE) {
        replace.addAll(scope);
      }
    }
    long deleted = 0;
    for (String p : replace) {
      deleted += deleteUnder(p);
    }
    if (!replace.isEmpty()) {
      LOG.info("Job {}: deleted {} old objects under {} {}", layout.jobId(), deleted, replace.size(),
          replace.size() == 1 ? "path" : "paths");
    }
    return deleted;
  }

  private String prefixOf(String relative) {
    String p = relative.isEmpty() ? layout.destPrefix() : layout.finalKey(relative);
    return p.isEmpty() || p.endsWith("/") ? p : p + "/";
  }

  /** A key holding data under {@code relative} (the job's staging directory aside), or null (one LIST). */
  private String firstExisting(String relative) throws IOException {
    ListPage page = store.list(prefixOf(relative), "/", null, 10);
    for (ObjectInfo o : page.objects()) {
      return o.key();
    }
    for (String p : page.prefixes()) {
      if (!p.equals(layout.stagingPrefix())) {
        return p;
      }
    }
    return null;
  }

  /** Deletes every object under {@code relative} but the staging records (one LIST page, one DELETE, as listed). */
  private long deleteUnder(String relative) throws IOException {
    String staging = layout.stagingPrefix();
    List<String> page = new ArrayList<>();
    long[] deleted = {0};
    Listings.forEach(store, prefixOf(relative), o -> {
      if (!o.key().startsWith(staging)) {
        page.add(o.key());
      }
      if (page.size() == Listings.PAGE_SIZE) {
        deleted[0] += store.deleteBatch(page);
        page.clear();
      }
    });
    if (!page.isEmpty()) {
      deleted[0] += store.deleteBatch(page);
    }
    return deleted[0];
  }

  private long completeAll(Parallel parallel, List<StagingTaskRecord> window) throws IOException {
    List<Parallel.IoTask<Void>> completes = new ArrayList<>();
    for (StagingTaskRecord r : window) {
      for (PendingFile f : r.files) {
        completes.add(() -> {
          complete(f);
          return null;
        });
      }
    }
    parallel.runAll(completes);
    return completes.size();
  }

  /** Makes one file visible: completes its upload, or writes the bytes its record carries (one PUT). */
  private void complete(PendingFile f) throws IOException {
    if (f.inline()) {
      store.put(layout.finalKey(f.path), Payload.of(f.data), WriteCondition.none());
      return;
    }
    List<UploadedPart> parts = new ArrayList<>(f.etags.size());
    int n = 1;
    for (String etag : f.etags) {
      parts.add(new UploadedPart(n++, etag, 0));
    }
    store.completeMultipartUpload(new MultipartUpload(layout.finalKey(f.path), f.uploadId, 0), parts,
        WriteCondition.none());
  }

  private void deleteRecords(int tasks) throws IOException {
    List<String> keys = new ArrayList<>(tasks);
    for (int i = 0; i < tasks; i++) {
      keys.add(layout.taskRecordKey(i));
    }
    store.deleteBatch(keys);
  }
}
