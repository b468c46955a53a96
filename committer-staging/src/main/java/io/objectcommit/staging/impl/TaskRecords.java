package io.objectcommit.staging.impl;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.commit.ForeignTaskRecordException;
import io.objectcommit.staging.files.StagingTaskRecord;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Parallel;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reading a job's task records by index (never by listing), a window at a time; a record the commit protocol handed
 * over and the store still holds unchanged is parsed from the handed-over bytes instead of read.
 */
final class TaskRecords {

  private final ObjectStore store;
  private final JobLayout layout;
  private final Parallel parallel;
  private final Map<String, CommittedTaskRecord> unchanged;

  /**
   * @param unchanged handed-over records, by key, whose ETag the store's listing showed unchanged (no GET for them)
   */
  TaskRecords(ObjectStore store, JobLayout layout, Parallel parallel, Map<String, CommittedTaskRecord> unchanged) {
    this.store = store;
    this.layout = layout;
    this.parallel = parallel;
    this.unchanged = unchanged;
  }

  /** The record of task {@code index}, or null when there is none (one GET, none for an unchanged one). */
  StagingTaskRecord load(int index) throws IOException {
    String key = layout.taskRecordKey(index);
    StagingTaskRecord r;
    CommittedTaskRecord given = unchanged.get(key);
    try {
      r = given != null ? given.record(StagingTaskRecord.CODEC, store.pathOf(key))
          : StagingTaskRecord.CODEC.load(store, key);
    } catch (FileNotFoundException e) {
      return null;
    }
    if (!layout.jobId().equals(r.jobId) || r.taskIndex != index) {
      throw new ForeignTaskRecordException(store.pathOf(key), "record of job " + r.jobId + " task "
          + r.taskIndex + " found where job " + layout.jobId() + " task " + index + " was expected");
    }
    return r;
  }

  /** Records {@code from..to-1}, loaded in parallel; null where there is none. */
  List<StagingTaskRecord> loadWindow(int from, int to) throws IOException {
    List<Parallel.IoTask<StagingTaskRecord>> loads = new ArrayList<>();
    for (int i = from; i < to; i++) {
      int index = i;
      loads.add(() -> load(index));
    }
    return parallel.runAll(loads);
  }
}
