package io.objectcommit.staging.impl;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.commit.CommitterStatistics;
import io.objectcommit.commit.JobAbortedException;
import io.objectcommit.staging.StagingOptions;
import io.objectcommit.staging.files.PendingFile;
import io.objectcommit.staging.files.StagingTaskRecord;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Parallel;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoredBytes;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.WriteCondition;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Task commit: puts the attempt's small files (at most {@code fs.objectcommit.staging.inline.file-bytes} each) into
 * its task record, smallest first, while their total stays within {@code fs.objectcommit.staging.inline.task-bytes};
 * uploads every other file of the attempt's local directory as an incomplete multipart upload (files in parallel,
 * parts of one file in order); then saves the task record with an exclusive create. Nothing becomes visible. If
 * anything fails, the uploads already started are aborted. If another attempt of the same task saved its record
 * first, this attempt's uploads are aborted, the task counts as committed by the other attempt, and the other
 * attempt's record is read back (one GET) for this attempt to carry to the driver in its place.
 *
 * <p>After the record is saved, one GET of the job-abort marker: if the job was aborted meanwhile, the attempt
 * aborts its uploads, deletes its record and fails with {@link JobAbortedException} (why this leaves no upload pending
 * in any interleaving with job abort: {@link JobAbortStage}).
 */
public final class TaskCommitStage {

  private static final Logger LOG = LoggerFactory.getLogger(TaskCommitStage.class);

  private static final String ABORTED_DURING_COMMIT = "it was aborted while the task committed; its uploads were"
      + " aborted and its record deleted";

  /** What task commit did. */
  public static final class Result {
    private final StagingTaskRecord record;
    private final boolean won;
    private final CommittedTaskRecord committed;

    Result(StagingTaskRecord record, boolean won, CommittedTaskRecord committed) {
      this.record = record;
      this.won = won;
      this.committed = committed;
    }

    /**
     * The task's record as stored (key, ETag, bytes), for the commit protocol to carry to the driver: the one this
     * attempt saved or, when another attempt won, the winner's as read back; null when it cannot be carried
     * ({@link CommittedTaskRecord#of}) or the winner's could not be read.
     */
    public CommittedTaskRecord committed() {
      return committed;
    }

    /** The record saved by this attempt, or the winner's record when {@link #won()} is false. */
    public StagingTaskRecord record() {
      return record;
    }

    /** False when another attempt of the task had committed first (this attempt's uploads were aborted). */
    public boolean won() {
      return won;
    }
  }

  private final ObjectStore store;
  private final JobLayout layout;
  private final StagingOptions options;

  public TaskCommitStage(ObjectStore store, JobLayout layout, StagingOptions options) {
    this.store = store;
    this.layout = layout;
    this.options = options;
  }

  /** The files to upload under {@code dir}, as '/'-separated relative paths, in order; checksum files skipped. */
  static List<String> localFiles(File dir) throws IOException {
    Path root = dir.toPath();
    if (!Files.isDirectory(root)) {
      return Collections.emptyList();
    }
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(Files::isRegularFile)
          .filter(p -> !(p.getFileName().toString().startsWith(".") && p.getFileName().toString().endsWith(".crc")))
          .map(p -> root.relativize(p).toString().replace(File.separatorChar, '/'))
          .sorted().collect(Collectors.toList());
    }
  }

  public Result commit(File attemptDir, int taskIndex, int taskCount, String attemptId, String hostname)
      throws IOException {
    long start = System.currentTimeMillis();
    List<String> paths = localFiles(attemptDir);
    Set<String> carried = carried(attemptDir, paths, options.inlineFileBytes(), options.inlineTaskBytes());
    List<MultipartUpload> started = Collections.synchronizedList(new ArrayList<>());
    List<PendingFile> files;
    try (Parallel parallel = new Parallel("objectcommit-task-upload", Math.min(options.uploadThreads(),
        Math.max(1, paths.size() - carried.size())))) {
      List<Parallel.IoTask<PendingFile>> uploads = new ArrayList<>();
      for (String p : paths) {
        Path file = new File(attemptDir, p).toPath();
        uploads.add(carried.contains(p) ? () -> PendingFile.inline(p, Files.readAllBytes(file))
            : () -> upload(file, p, started));
      }
      try {
        files = parallel.runAll(uploads);
      } catch (IOException | RuntimeException e) {
        abortQuietly(started, "task " + attemptId + " failed to upload its files");
        if (e instanceof IOException && jobAborted()) {
          // the job abort's sweep aborted an upload of this attempt under its feet: say so, with the failure as cause
          JobAbortedException aborted = new JobAbortedException(store.pathOf(layout.taskRecordKey(taskIndex)),
              layout.jobId(), attemptId, ABORTED_DURING_COMMIT);
          aborted.initCause(e);
          throw aborted;
        }
        throw e;
      }
    }
    StagingTaskRecord record = new StagingTaskRecord(layout.jobId(), taskIndex, taskCount, attemptId, hostname, files);
    long bytes = record.bytes();
    record.statistics.put(CommitterStatistics.TASK_FILES, (long) files.size());
    record.statistics.put(CommitterStatistics.TASK_FILES_INLINE, (long) carried.size());
    record.statistics.put(CommitterStatistics.TASK_BYTES, bytes);
    record.statistics.put(CommitterStatistics.TASK_COMMIT_MS, System.currentTimeMillis() - start);
    String key = layout.taskRecordKey(taskIndex);
    byte[] json = StagingTaskRecord.CODEC.toBytes(record);
    ObjectInfo saved;
    try {
      saved = store.put(key, Payload.of(json), WriteCondition.ifAbsent());
    } catch (FileAlreadyExistsException e) {
      abortQuietly(started, "another attempt of task " + taskIndex + " committed first");
      StagingTaskRecord winner = null;
      CommittedTaskRecord winnersCarried = null;
      try {
        StoredBytes stored = store.getBytes(key);
        winner = StagingTaskRecord.CODEC.fromBytes(stored.data(), store.pathOf(key));
        // Carried for the winner, whose own message may never reach the driver (its executor was lost after it
        // committed): the driver's hand-over stays complete, so job commit still reads no record.
        winnersCarried = CommittedTaskRecord.of(key, stored.info().etag(), stored.data());
      } catch (IOException notReadable) {
        LOG.warn("Cannot read the record of the attempt that committed task {} first: {}", taskIndex,
            notReadable.toString());
      }
      LOG.warn("Task attempt {}: task {} was already committed by attempt {}; this attempt's {} uploads were aborted"
          + " (and its {} files carried in the refused record dropped)", attemptId, taskIndex,
          winner == null ? "?" : winner.taskAttemptId, files.size() - carried.size(), carried.size());
      return new Result(winner, false, winnersCarried);
    } catch (IOException | RuntimeException e) {
      abortQuietly(started, "task " + attemptId + " failed to save its record " + store.pathOf(key));
      throw e;
    }
    if (markerPresent()) { // one GET: see JobAbortStage for why it suffices
      abortQuietly(started, "job " + layout.jobId() + " was aborted while task " + attemptId + " committed");
      try {
        store.delete(key);
      } catch (IOException e) {
        LOG.warn("Could not delete the record {} of a task of an aborted job: {}", store.pathOf(key), e.toString());
        LOG.debug("delete failure", e);
      }
      throw new JobAbortedException(store.pathOf(key), layout.jobId(), attemptId, ABORTED_DURING_COMMIT);
    }
    LOG.info("Task attempt {} committed {} files ({} bytes): {} as pending uploads, {} ({} bytes) in its record, in {}"
        + " ms", attemptId, files.size(), bytes, files.size() - carried.size(), carried.size(), record.inlineBytes(),
        System.currentTimeMillis() - start);
    return new Result(record, true, CommittedTaskRecord.of(key, saved.etag(), json));
  }

  /**
   * The files (of {@code paths}) the task record carries: those of at most {@code fileMax} bytes, the smallest first
   * (then by path), while their total stays within {@code budget} bytes.
   */
  static Set<String> carried(File dir, List<String> paths, long fileMax, long budget) throws IOException {
    Set<String> carried = new HashSet<>();
    if (budget <= 0) {
      return carried;
    }
    List<Map.Entry<String, Long>> sizes = new ArrayList<>(paths.size());
    for (String p : paths) {
      sizes.add(new AbstractMap.SimpleImmutableEntry<>(p, Files.size(new File(dir, p).toPath())));
    }
    sizes.sort(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey()));
    long total = 0;
    for (Map.Entry<String, Long> e : sizes) {
      if (e.getValue() > fileMax || total + e.getValue() > budget) {
        break;
      }
      total += e.getValue();
      carried.add(e.getKey());
    }
    return carried;
  }

  private PendingFile upload(Path file, String relative, List<MultipartUpload> started) throws IOException {
    long length = Files.size(file);
    MultipartUpload upload = store.initiateMultipartUpload(layout.finalKey(relative));
    started.add(upload);
    List<String> etags = new ArrayList<>();
    long partSize = options.partSize();
    int n = 1;
    long off = 0;
    do {
      long len = Math.min(partSize, length - off);
      UploadedPart part = store.uploadPart(upload, n, Payload.of(file, off, len));
      etags.add(part.etag());
      off += len;
      n++;
    } while (off < length);
    return new PendingFile(relative, upload.uploadId(), length, etags);
  }

  /** Whether the job-abort marker exists: one GET (committer-common's {@code JobAbortMarker}). */
  private boolean markerPresent() throws IOException {
    return layout.abortMarker().exists(store);
  }

  /** Whether the job-abort marker exists, asked after a failed upload; an unreadable marker counts as absent. */
  private boolean jobAborted() {
    return layout.abortMarker().existsQuietly(store);
  }

  private void abortQuietly(List<MultipartUpload> uploads, String why) {
    List<MultipartUpload> copy;
    synchronized (uploads) {
      copy = new ArrayList<>(uploads);
    }
    if (copy.isEmpty()) {
      return;
    }
    LOG.info("Aborting {} uploads: {}", copy.size(), why);
    try (Parallel parallel = new Parallel("objectcommit-task-abort", Math.min(options.uploadThreads(), copy.size()))) {
      List<Parallel.IoTask<Void>> aborts = new ArrayList<>();
      for (MultipartUpload u : copy) {
        aborts.add(() -> {
          store.abortMultipartUpload(u);
          return null;
        });
      }
      parallel.runAll(aborts);
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not abort every upload ({}); to remove what is left, {}: {}", why,
          layout.leftoverUploadsHint(), e.toString());
      LOG.debug("abort failure", e);
    }
  }
}
