package io.objectcommit.direct.impl;

import io.objectcommit.direct.files.AttemptEntry;
import io.objectcommit.direct.files.DirectTaskRecord;
import io.objectcommit.store.Listings;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.files.JsonRecordCodec;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Reads a job's task records and finds the files they account for. */
final class JobBookkeeping {

  private static final JsonRecordCodec<DirectTaskRecord> CODEC = DirectTaskRecord.CODEC;
  private static final char[] TYPES = {'m', 'r'};

  private JobBookkeeping() {
  }

  /**
   * The task records of a committing job, by key, read without LIST: tasks are numbered from 0 without gaps and
   * every task has committed before job commit, so records {@code m-000000, m-000001, ...} are read until the
   * first missing one (then the same for reduce tasks). One GET per task, plus one 404 per task type.
   */
  static Map<String, DirectTaskRecord> probe(ObjectStore store, OutputLocation loc, String jobId) throws IOException {
    Map<String, DirectTaskRecord> records = new LinkedHashMap<>();
    for (char type : TYPES) {
      for (int n = 0; ; n++) {
        String key = loc.taskRecordKey(jobId, OutputLocation.taskName(type, n));
        try {
          records.put(key, CODEC.load(store, key));
        } catch (FileNotFoundException e) {
          break;
        }
      }
    }
    return records;
  }

  /**
   * Every task record of a job: the probed ones (which a lagging listing cannot hide) plus those one LIST of the
   * job's bookkeeping finds (a failed job, or an engine that numbers tasks with gaps, has records after a gap).
   */
  static Map<String, DirectTaskRecord> all(ObjectStore store, OutputLocation loc, String jobId) throws IOException {
    Map<String, DirectTaskRecord> records = probe(store, loc, jobId);
    for (String key : Listings.keys(store, loc.tasksPrefix(jobId))) {
      if (key.endsWith(".json") && !records.containsKey(key)) {
        try {
          records.put(key, CODEC.load(store, key));
        } catch (FileNotFoundException e) {
          // deleted meanwhile
        }
      }
    }
    return records;
  }

  /** Files of attempts that did not commit and may still exist, minus the committed files. */
  static Set<String> leftovers(ObjectStore store, DirectTaskRecord r) throws IOException {
    Set<String> keys = new TreeSet<>();
    for (AttemptEntry e : r.attempts) {
      if (e.state == AttemptEntry.State.WRITING) {
        keys.addAll(Leftovers.of(store, e, true));
      } else if (e.state == AttemptEntry.State.SUPERSEDED) {
        keys.addAll(Leftovers.of(store, e, false));
      }
    }
    keys.removeAll(r.committedKeys());
    return keys;
  }

  /** Every file a task record accounts for, committed or not. */
  static Set<String> everything(ObjectStore store, DirectTaskRecord r) throws IOException {
    Set<String> keys = new TreeSet<>(r.committedKeys());
    for (AttemptEntry e : r.attempts) {
      if (e.state != AttemptEntry.State.ABORTED) {
        keys.addAll(Leftovers.of(store, e));
      }
    }
    return keys;
  }
}
