package io.objectcommit.staging.impl;

import io.objectcommit.fs.MultipartUpload;
import io.objectcommit.fs.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Aborts the incomplete uploads of one job that no task record names: those of attempts that died in the middle
 * of task commit. They are recognised by the job's UUID in their key (Spark names every file
 * {@code part-<n>-<job UUID>...}); one multipart LIST per job. Uploads of other jobs writing to the same
 * destination are left alone.
 */
final class Sweep {

  private static final Logger LOG = LoggerFactory.getLogger(Sweep.class);

  private Sweep() {
  }

  static long abortJobUploads(ObjectStore store, JobLayout layout, Parallel parallel) throws IOException {
    List<MultipartUpload> ours = new ArrayList<>();
    for (MultipartUpload u : store.listMultipartUploads(layout.destPrefix())) {
      String name = u.key().substring(u.key().lastIndexOf('/') + 1);
      if (name.contains(layout.jobId())) {
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
