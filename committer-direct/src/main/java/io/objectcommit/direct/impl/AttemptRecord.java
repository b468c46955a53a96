package io.objectcommit.direct.impl;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.direct.OverlappingAbortException;
import io.objectcommit.direct.SupersededAttemptException;
import io.objectcommit.direct.files.AttemptEntry;
import io.objectcommit.direct.files.CommittedFile;
import io.objectcommit.direct.files.DirectTaskRecord;
import io.objectcommit.direct.files.FileGroup;
import io.objectcommit.store.ObjectStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task attempt's changes to its task record ({@link DirectTaskRecord}), each a compare-and-swap of the record,
 * in the order of intents the direct committer's protocol rests on (docs/committer-direct.md): a file group is
 * declared before its first upload; a commit supersedes the task's other attempts and deletes what they left; an
 * abort records the keys it will delete before deleting them; after a job abort the attempt's entry goes.
 */
final class AttemptRecord {

  private static final Logger LOG = LoggerFactory.getLogger(AttemptRecord.class);
  /** How long a commit waits for another attempt's abort that is deleting keys it also wrote. */
  static final long ABORT_WAIT_MS = 30_000;
  static final long ABORT_POLL_MS = 200;

  private final String attemptId;
  private final String taskName;
  private final String jobId;
  private final ObjectStore store;
  private final String key;
  private final TaskRecordHandle record;

  /** A change found the task record gone although this attempt had declared files in it. */
  static final class RecordGone extends IOException {
    private static final long serialVersionUID = 1L;

    RecordGone(String path) {
      super(path + ": the task record is gone");
    }
  }

  AttemptRecord(String attemptId, String taskName, String jobId, ObjectStore store, String key, int casAttempts) {
    this.attemptId = attemptId;
    this.taskName = taskName;
    this.jobId = jobId;
    this.store = store;
    this.key = key;
    this.record = new TaskRecordHandle(store, key, casAttempts);
  }

  /** The record's path, for messages. */
  String path() {
    return record.path();
  }

  /** The record as this attempt last wrote it (after {@link #commit}: the committed record), or null. */
  CommittedTaskRecord written() throws IOException {
    return record.stored();
  }

  /**
   * Declares a file group of this attempt (and the files uploaded so far) before the group's first upload; fails
   * with {@link RecordGone} if the record vanished after an earlier declaration, with
   * {@link SupersededAttemptException} if another attempt committed or this one was aborted.
   */
  void declare(FileGroup group, List<String> uploaded, boolean declaredBefore) throws IOException {
    record.update(current -> {
      if (current == null && declaredBefore) {
        throw new RecordGone(record.path());
      }
      DirectTaskRecord r = current == null ? new DirectTaskRecord(jobId, taskName) : current;
      fence(r);
      AttemptEntry e = r.entryOrNew(attemptId);
      if (!e.groups.contains(group)) {
        e.groups.add(group);
      }
      e.files = uploaded;
      return r;
    });
  }

  /**
   * Records the commit of {@code mine} (key to size), waiting up to {@link #ABORT_WAIT_MS} while another attempt of
   * the task is still deleting, in its abort, keys this attempt wrote (that abort runs on another executor, usually
   * for less than a second): once it has finished, whether this attempt's files survived can be told. One GET of
   * the record per {@link #ABORT_POLL_MS}, only while such an abort is pending.
   */
  void commit(Map<String, Long> mine, List<FileGroup> groups, int taskCount, Map<String, Long> statistics)
      throws IOException {
    long deadline = System.currentTimeMillis() + ABORT_WAIT_MS;
    while (true) {
      try {
        commitOnce(mine, groups, taskCount, statistics);
        return;
      } catch (OverlappingAbortException e) {
        if (!e.pending() || System.currentTimeMillis() > deadline) {
          throw e;
        }
        LOG.info("Task attempt {}: waiting for attempt {} to finish its abort before committing",
            attemptId, e.abortingAttemptId());
      }
      try {
        Thread.sleep(ABORT_POLL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for another attempt's abort of task " + taskName);
      }
      record.reload();
    }
  }

  private void commitOnce(Map<String, Long> mine, List<FileGroup> groups, int taskCount,
      Map<String, Long> statistics) throws IOException {
    record.update(current -> {
      if (current == null && !groups.isEmpty()) {
        throw new RecordGone(record.path());
      }
      DirectTaskRecord r = current == null ? new DirectTaskRecord(jobId, taskName) : current;
      if (r.committedAttempt != null && !r.committedAttempt.equals(attemptId)) {
        throw new SupersededAttemptException(record.path(), attemptId, "attempt " + r.committedAttempt
            + " already committed task " + taskName + " of job " + jobId);
      }
      OverlappingAborts.check(store, record.path(), attemptId, r, mine.keySet());
      Set<String> doomed = new TreeSet<>();
      for (AttemptEntry e : r.attempts) {
        if (!e.attempt.equals(attemptId) && e.state == AttemptEntry.State.WRITING) {
          Set<String> found = Leftovers.of(store, e);
          doomed.addAll(found);
          e.state = AttemptEntry.State.SUPERSEDED;
          // keep what was found: a zombie's later files are probed from after these at job commit
          e.files = new ArrayList<>(found);
        }
      }
      doomed.removeAll(mine.keySet());
      Leftovers.delete(store, doomed, "earlier attempts of task " + taskName + " (committing " + attemptId + ")");
      AttemptEntry me = r.entryOrNew(attemptId);
      me.state = AttemptEntry.State.COMMITTED;
      me.groups = groups;
      me.files = new ArrayList<>(mine.keySet());
      r.committedAttempt = attemptId;
      r.taskCount = taskCount;
      r.committedFiles = new ArrayList<>();
      mine.forEach((k, size) -> r.committedFiles.add(new CommittedFile(k, size)));
      r.statistics = new LinkedHashMap<>(statistics);
      return r;
    });
  }

  /**
   * Records this attempt ABORTING with the keys it will delete (its files, less those of an attempt that committed),
   * then deletes them, then records it ABORTED. The record is written before the first delete, so that the keys are
   * chosen from the record as it stands when the abort takes effect: an attempt of the same task that commits
   * later sees the abort and checks its own files ({@link OverlappingAborts}); one that committed earlier keeps its
   * files. (Two attempts of a task write the same keys: deleting first, from an older copy of the record, could
   * delete the file another attempt uploaded at that key meanwhile.)
   */
  void abort(List<String> mine, boolean declaredAny) throws IOException {
    List<String> doomed = new ArrayList<>();
    record.reload(); // the change decides what to delete: from the stored record, not this attempt's last copy
    record.update(current -> {
      if (current == null && declaredAny) {
        throw new RecordGone(record.path());
      }
      DirectTaskRecord r = current == null ? new DirectTaskRecord(jobId, taskName) : current;
      Set<String> keep = r.committedAttempt != null && !r.committedAttempt.equals(attemptId) ? r.committedKeys()
          : Set.of();
      AttemptEntry me = r.entryOrNew(attemptId);
      Set<String> keys = new TreeSet<>(mine);
      keys.addAll(me.files);
      keys.removeAll(keep);
      if (attemptId.equals(r.committedAttempt)) {
        r.committedAttempt = null;
        r.committedFiles = new ArrayList<>();
      }
      me.state = AttemptEntry.State.ABORTING;
      me.files = new ArrayList<>(keys);
      doomed.clear();
      doomed.addAll(keys);
      return r;
    });
    Leftovers.delete(store, doomed, "aborted task attempt " + attemptId);
    record.update(current -> {
      if (current == null) {
        return null;
      }
      current.entry(attemptId).ifPresent(me -> me.state = AttemptEntry.State.ABORTED);
      return current;
    });
  }

  /** Aborts an attempt this JVM did not run: deletes what its entry in the task record accounts for. */
  void abortFromRecord() throws IOException {
    record.update(current -> {
      if (current == null || !current.entry(attemptId).isPresent()) {
        return null;
      }
      DirectTaskRecord r = current;
      AttemptEntry me = r.entry(attemptId).get();
      Set<String> doomed = new TreeSet<>(Leftovers.of(store, me));
      if (r.committedAttempt != null && !r.committedAttempt.equals(attemptId)) {
        doomed.removeAll(r.committedKeys());
      }
      Leftovers.delete(store, doomed, "aborted task attempt " + attemptId + " (from its task record)");
      if (attemptId.equals(r.committedAttempt)) {
        r.committedAttempt = null;
        r.committedFiles = new ArrayList<>();
      }
      me.state = AttemptEntry.State.ABORTED;
      me.files = new ArrayList<>();
      return r;
    });
  }

  /** After the job was aborted: this attempt's entry marked ABORTED, or the record deleted if nothing else is in it. */
  void removeAfterJobAbort() throws IOException {
    boolean[] deleteRecord = {false};
    record.reload(); // what other attempts recorded since this attempt's last write decides whether to delete it
    record.update(current -> {
      deleteRecord[0] = false;
      if (current == null) {
        return null;
      }
      boolean otherCommitted = current.committedAttempt != null && !current.committedAttempt.equals(attemptId);
      boolean othersLive = current.attempts.stream()
          .anyMatch(e -> !e.attempt.equals(attemptId) && e.state != AttemptEntry.State.ABORTED);
      if (!otherCommitted && !othersLive) {
        deleteRecord[0] = true;
        return null;
      }
      AttemptEntry me = current.entryOrNew(attemptId);
      me.state = AttemptEntry.State.ABORTED;
      me.files = new ArrayList<>();
      return current;
    });
    if (deleteRecord[0]) {
      store.delete(key);
    }
  }

  /** Whether the stored record names this attempt as the task's committed one (one GET). */
  boolean committed() throws IOException {
    DirectTaskRecord r = record.read();
    return r != null && attemptId.equals(r.committedAttempt);
  }

  private void fence(DirectTaskRecord r) throws IOException {
    if (r.committedAttempt != null && !r.committedAttempt.equals(attemptId)) {
      throw new SupersededAttemptException(record.path(), attemptId, "attempt " + r.committedAttempt
          + " already committed task " + taskName + " of job " + jobId);
    }
    AttemptEntry e = r.entry(attemptId).orElse(null);
    if (e != null && e.state != AttemptEntry.State.WRITING) {
      throw new SupersededAttemptException(record.path(), attemptId, "its task record says it was " + e.state);
    }
  }
}
