package io.objectcommit.staging.impl;

import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Parallel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Aborts the incomplete uploads of one job that no task record names: those of attempts that died in the middle
 * of task commit, and those a retried initiation left when the store started an upload but its answer was lost.
 * They are recognised by a UUID in their file name: the job's, or one of the UUIDs in the names of the files its
 * records name (Spark names every file {@code part-<n>-<write UUID>...}, and with Spark's own commit protocol
 * that UUID is not the job's id); one multipart LIST per job. Uploads of other jobs writing to the same
 * destination are left alone.
 */
final class Sweep {

  private static final Logger LOG = LoggerFactory.getLogger(Sweep.class);

  /** Most distinct file-name UUIDs remembered per job (Spark's files carry one). */
  static final int MAX_NAME_IDS = 16;
  private static final Pattern UUID =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  private Sweep() {
  }

  /** Adds the UUIDs in the file name of {@code path} to {@code ids}, up to {@value #MAX_NAME_IDS} in all. */
  static void collectNameIds(String path, Set<String> ids) {
    if (ids.size() >= MAX_NAME_IDS) {
      return;
    }
    Matcher m = UUID.matcher(path.substring(path.lastIndexOf('/') + 1));
    while (m.find() && ids.size() < MAX_NAME_IDS) {
      ids.add(m.group());
    }
  }

  /** Aborts the uploads whose file name holds the job's id or one of {@code nameIds}. */
  static long abortJobUploads(ObjectStore store, JobLayout layout, Set<String> nameIds, Parallel parallel)
      throws IOException {
    List<MultipartUpload> ours = new ArrayList<>();
    for (MultipartUpload u : store.listMultipartUploads(layout.destPrefix())) {
      String name = u.key().substring(u.key().lastIndexOf('/') + 1);
      if (name.contains(layout.jobId()) || nameIds.stream().anyMatch(name::contains)) {
        ours.add(u);
      }
    }
    if (ours.isEmpty()) {
      return 0;
    }
    LOG.info("Job {}: aborting {} uploads that no committed task record names", layout.jobId(), ours.size());
    List<Parallel.IoTask<Void>> aborts = new ArrayList<>();
    for (MultipartUpload u : ours) {
      aborts.add(() -> {
        store.abortMultipartUpload(u);
        return null;
      });
    }
    parallel.runAll(aborts);
    return ours.size();
  }
}
