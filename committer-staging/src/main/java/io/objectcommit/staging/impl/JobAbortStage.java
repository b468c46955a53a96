package io.objectcommit.staging.impl;

import io.objectcommit.staging.JobAbortIncompleteException;
import io.objectcommit.staging.StagingOptions;
import io.objectcommit.staging.files.PendingFile;
import io.objectcommit.staging.files.StagingTaskRecord;
import io.objectcommit.store.Listings;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Parallel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Job abort: aborts every pending upload of the job, and deletes its records. The records of committed tasks are
 * found by listing the job's record directory (housekeeping; a task that failed has no record, so the indices are
 * not dense) and, in case the listing lags, by probing every index below the task count a found record carries.
 * When job commit had started completing uploads, the files it completed are deleted too, so that an aborted job
 * leaves nothing visible. Uploads of attempts that died during task commit are found by the sweep.
 *
 * <p><b>Racing task commits.</b> Spark may abort a job while other task attempts are still committing (and executors
 * may keep running after the driver gave up). Before it looks for anything, job abort therefore creates the job-abort
 * marker ({@link JobLayout#jobAbortedKey()}, one PUT); a task commit, after its uploads are initiated and its record
 * is saved, reads the marker (one GET) and, when it is there, aborts its own uploads, deletes its record and fails
 * with {@link io.objectcommit.commit.JobAbortedException} (committer-common's {@link io.objectcommit.commit.JobAbortMarker}, which the direct committer uses too). S3 is strongly consistent (read after write, list after
 * write), so for every interleaving one of the two sees the other: either the task's HEAD comes after the marker's
 * PUT (the task cleans up after itself), or it comes before, and then the task's record was saved before the marker
 * and hence before this stage lists and reads the records (this stage aborts the uploads the record names). Both may
 * happen; aborting an upload twice is harmless (a missing upload is ignored). The marker stays (a few bytes) so that
 * task commits arriving later still see it.
 */
public final class JobAbortStage {

  private static final Logger LOG = LoggerFactory.getLogger(JobAbortStage.class);

  private final ObjectStore store;
  private final JobLayout layout;
  private final StagingOptions options;

  public JobAbortStage(ObjectStore store, JobLayout layout, StagingOptions options) {
    this.store = store;
    this.layout = layout;
    this.options = options;
  }

  /**
   * @param deleteCompleted also delete the final objects of the job's files (job commit had begun completing them)
   * @return the number of uploads aborted
   */
  public long abort(boolean deleteCompleted, int taskCountHint) throws IOException {
    writeAbortMarker();
    TreeSet<Integer> indices = new TreeSet<>();
    Listings.forEach(store, layout.recordsPrefix(), o -> {
      int i = layout.taskIndexOf(o.key());
      if (i >= 0) {
        indices.add(i);
      }
    });
    long aborted = 0;
    long deleted = 0;
    List<String> recordKeys = new ArrayList<>();
    Set<String> nameIds = new LinkedHashSet<>();
    IOException failure = null;
    try (Parallel parallel = new Parallel("objectcommit-job-abort", options.commitThreads())) {
      TaskRecords records = new TaskRecords(store, layout, parallel, Map.of());
      int count = taskCountHint;
      List<Integer> todo = new ArrayList<>(indices);
      int window = Math.max(64, options.commitThreads() * 4);
      boolean probed = false;
      while (!todo.isEmpty()) {
        for (int w = 0; w < todo.size(); w += window) {
          List<Integer> slice = todo.subList(w, Math.min(todo.size(), w + window));
          List<Parallel.IoTask<StagingTaskRecord>> loads = new ArrayList<>();
          for (int i : slice) {
            loads.add(() -> records.load(i));
          }
          List<StagingTaskRecord> loaded;
          try {
            loaded = parallel.runAll(loads);
          } catch (IOException e) {
            failure = first(failure, e);
            continue;
          }
          List<Parallel.IoTask<Void>> work = new ArrayList<>();
          List<String> finalKeys = new ArrayList<>();
          for (StagingTaskRecord r : loaded) {
            if (r == null) {
              continue;
            }
            count = Math.max(count, r.taskCount);
            recordKeys.add(layout.taskRecordKey(r.taskIndex));
            for (PendingFile f : r.files) {
              Sweep.collectNameIds(f.path, nameIds);
              finalKeys.add(layout.finalKey(f.path));
              if (f.inline()) {
                continue; // carried in the record: nothing was uploaded
              }
              MultipartUpload u = new MultipartUpload(layout.finalKey(f.path), f.uploadId, 0);
              work.add(() -> {
                store.abortMultipartUpload(u);
                return null;
              });
            }
          }
          try {
            parallel.runAll(work);
            aborted += work.size();
            if (deleteCompleted && !finalKeys.isEmpty()) {
              store.deleteBatch(finalKeys);
              deleted += finalKeys.size();
            }
          } catch (IOException e) {
            failure = first(failure, e);
          }
        }
        todo = new ArrayList<>();
        if (!probed) {
          probed = true;
          for (int i = 0; i < count; i++) {
            if (!indices.contains(i)) {
              todo.add(i); // not listed: a task that failed, or a listing that lags
            }
          }
        }
      }
      if (options.sweepUploads()) {
        try {
          aborted += Sweep.abortJobUploads(store, layout, nameIds, parallel);
        } catch (IOException e) {
          failure = first(failure, e);
        }
      }
      store.deleteBatch(recordKeys);
    }
    LOG.info("Job {} aborted: {} pending uploads aborted{}", layout.jobId(), aborted,
        deleteCompleted ? ", " + deleted + " completed files deleted" : "");
    if (failure != null) {
      throw new JobAbortIncompleteException(store.pathOf(layout.destPrefix()), layout.jobId(),
          layout.leftoverUploadsHint(), failure);
    }
    return aborted;
  }

  /** Creates the job-abort marker before anything is read; an existing marker (an earlier abort) is fine. */
  private void writeAbortMarker() throws IOException {
    layout.abortMarker().create(store);
  }

  /** The first failure stays the one reported; later ones are added to it as suppressed. */
  private static IOException first(IOException first, IOException next) {
    if (first == null) {
      return next;
    }
    if (first != next) {
      first.addSuppressed(next);
    }
    return first;
  }
}
