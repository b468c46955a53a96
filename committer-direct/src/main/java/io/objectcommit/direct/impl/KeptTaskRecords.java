package io.objectcommit.direct.impl;

import io.objectcommit.direct.files.AttemptEntry;
import io.objectcommit.direct.files.DirectTaskRecord;
import io.objectcommit.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task records a job abort keeps: those naming an attempt still writing when the abort read them (a task Spark is
 * cancelling, an executor the driver lost), so that what such an attempt uploads after the abort stays accounted for.
 */
final class KeptTaskRecords {

  private static final Logger LOG = LoggerFactory.getLogger(KeptTaskRecords.class);

  private KeptTaskRecords() {
  }

  /**
   * The records with an attempt still WRITING (neither committed, aborted nor superseded): one running after the
   * abort (a cancelled task, or an executor the driver lost) or one that died without a trace. Job abort keeps them,
   * so that the files such an attempt uploads later in a directory it had declared stay accounted for: the attempt
   * removes them itself when it ends, and if it died, the cleanup command probes its groups again.
   */
  static boolean stillWriting(DirectTaskRecord r) {
    return r.attempts.stream().anyMatch(e -> e.state == AttemptEntry.State.WRITING);
  }

  /**
   * A kept record: each attempt's known files become what the abort found (and deleted), so that a later probe of
   * its groups (the cleanup command, the attempt's own clean-up) starts after them and finds files uploaded after the
   * abort, past the gap the deletion left. A conditional write (compare-and-swap: the attempt may be declaring).
   *
   * <p>When no attempt of the record is writing any more, the record is deleted instead: its attempts ended between
   * the abort's read of the records and now, and one that read the job-abort marker before the abort wrote it (a
   * task abort racing the job abort) left its record for the job abort to remove.
   *
   * @param casAttempts how often to retry the compare-and-swap
   * @return whether the record is kept (an attempt still writing)
   */
  static boolean keepAccounted(ObjectStore store, String key, Map<String, Set<String>> found, int casAttempts)
      throws IOException {
    TaskRecordHandle handle = new TaskRecordHandle(store, key, casAttempts);
    handle.reload();
    DirectTaskRecord now = handle.update(current -> {
      if (current == null || !stillWriting(current)) {
        return null; // the attempt removed it meanwhile, or every attempt has ended: nothing to write
      }
      for (AttemptEntry e : current.attempts) {
        Set<String> f = found.get(e.attempt);
        if (f != null && e.state == AttemptEntry.State.WRITING) {
          Set<String> files = new TreeSet<>(e.files);
          files.addAll(f);
          e.files = new ArrayList<>(files);
        }
      }
      return current;
    });
    if (now == null) {
      return false;
    }
    if (!stillWriting(now)) {
      LOG.info("Job abort: every attempt recorded in {} has ended meanwhile; removing the record", store.pathOf(key));
      store.delete(key);
      return false;
    }
    return true;
  }
}
