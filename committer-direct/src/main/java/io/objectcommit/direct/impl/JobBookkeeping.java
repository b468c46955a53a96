package io.objectcommit.direct.impl;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.direct.files.AttemptEntry;
import io.objectcommit.direct.files.DirectTaskRecord;
import io.objectcommit.store.Listings;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Parallel;
import io.objectcommit.store.files.JsonRecordCodec;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
   * first missing one (then the same for reduce tasks). Record 0 says how many tasks its stage has (version 2,
   * written in Spark): the others are then read in parallel, {@code window} at a time, and only the record after
   * the last is probed on its own. One GET per task, plus one 404 per task type, either way.
   */
  static Map<String, DirectTaskRecord> probe(ObjectStore store, OutputLocation loc, String jobId, Parallel parallel,
      int window) throws IOException {
    Map<String, DirectTaskRecord> records = new LinkedHashMap<>();
    for (char type : TYPES) {
      String firstKey = loc.taskRecordKey(jobId, OutputLocation.taskName(type, 0));
      DirectTaskRecord first = read(store, firstKey);
      if (first == null) {
        continue;
      }
      records.put(firstKey, first);
      int next = 1;
      boolean gap = false;
      while (!gap && next < first.taskCount) {
        int hi = Math.min(first.taskCount, next + window);
        List<String> keys = new ArrayList<>();
        for (int n = next; n < hi; n++) {
          keys.add(loc.taskRecordKey(jobId, OutputLocation.taskName(type, n)));
        }
        gap = readAll(store, keys, parallel, records);
        next = hi;
      }
      if (!gap) {
        probeFrom(store, loc, jobId, type, next, records);
      }
    }
    return records;
  }

  /**
   * Every task record of a job: the probed ones (which a lagging listing cannot hide) plus those one LIST of the
   * job's bookkeeping finds (a failed job, or an engine that numbers tasks with gaps, has records after a gap).
   */
  static Map<String, DirectTaskRecord> all(ObjectStore store, OutputLocation loc, String jobId, Parallel parallel,
      int window) throws IOException {
    Map<String, DirectTaskRecord> records = probe(store, loc, jobId, parallel, window);
    List<String> more = new ArrayList<>();
    for (String key : Listings.keys(store, loc.tasksPrefix(jobId))) {
      if (key.endsWith(".json") && !records.containsKey(key)) {
        more.add(key);
      }
    }
    for (int lo = 0; lo < more.size(); lo += window) {
      readAll(store, more.subList(lo, Math.min(more.size(), lo + window)), parallel, records); // gone: deleted
    }
    return records;
  }

  /**
   * The task records of a committing job whose commit protocol handed over the record each committed attempt wrote
   * ({@link CommittedTaskRecord}): one LIST of the job's bookkeeping (a request per 1,000 tasks) gives each record's
   * current ETag, and only a record whose ETag differs (another attempt changed it since), one nobody handed over,
   * or a handed-over one the listing does not show, is read. A hand-over is used only when it is complete, a record
   * of every task of the stage (the records say how many); otherwise the records are read as {@link #all} reads
   * them, since the listing alone could miss one.
   */
  static Map<String, DirectTaskRecord> withHandedOver(ObjectStore store, OutputLocation loc, String jobId,
      Parallel parallel, int window, Map<String, CommittedTaskRecord> handedOver) throws IOException {
    String prefix = loc.tasksPrefix(jobId);
    Map<String, DirectTaskRecord> given = new TreeMap<>();
    for (CommittedTaskRecord c : handedOver.values()) {
      if (c.key().startsWith(prefix)) { // another job's record is never this job's business
        given.put(c.key(), c.record(CODEC, store.pathOf(c.key())));
      }
    }
    if (!complete(loc, jobId, given)) {
      return all(store, loc, jobId, parallel, window);
    }
    Map<String, DirectTaskRecord> records = new TreeMap<>();
    Set<String> read = new TreeSet<>(given.keySet());
    for (ObjectInfo o : Listings.objects(store, prefix)) {
      String key = o.key();
      if (!key.endsWith(".json")) {
        continue;
      }
      if (given.containsKey(key) && handedOver.get(key).etag().equals(o.etag())) {
        records.put(key, given.get(key));
        read.remove(key);
      } else {
        read.add(key);
      }
    }
    List<String> keys = new ArrayList<>(read);
    for (int lo = 0; lo < keys.size(); lo += window) {
      readAll(store, keys.subList(lo, Math.min(keys.size(), lo + window)), parallel, records); // gone: deleted
    }
    return records;
  }

  /** Whether {@code given} holds the record of every map task of the stage, and the stage's size is known. */
  private static boolean complete(OutputLocation loc, String jobId, Map<String, DirectTaskRecord> given) {
    int tasks = given.values().stream().mapToInt(r -> r.taskCount).max().orElse(0);
    if (tasks == 0) {
      return false;
    }
    for (int n = 0; n < tasks; n++) {
      if (!given.containsKey(loc.taskRecordKey(jobId, OutputLocation.taskName('m', n)))) {
        return false;
      }
    }
    return true;
  }

  /** Reads the records of {@code keys} in parallel into {@code into}, in key order; true if any is missing. */
  private static boolean readAll(ObjectStore store, List<String> keys, Parallel parallel,
      Map<String, DirectTaskRecord> into) throws IOException {
    List<Parallel.IoTask<DirectTaskRecord>> reads = new ArrayList<>(keys.size());
    for (String key : keys) {
      reads.add(() -> read(store, key));
    }
    List<DirectTaskRecord> got = parallel.runAll(reads);
    boolean missing = false;
    for (int i = 0; i < keys.size(); i++) {
      if (got.get(i) == null) {
        missing = true;
      } else {
        into.put(keys.get(i), got.get(i));
      }
    }
    return missing;
  }

  /** Reads the records of {@code type} from task {@code from} on, one after another, until the first missing one. */
  private static void probeFrom(ObjectStore store, OutputLocation loc, String jobId, char type, int from,
      Map<String, DirectTaskRecord> into) throws IOException {
    for (int n = from; ; n++) {
      String key = loc.taskRecordKey(jobId, OutputLocation.taskName(type, n));
      DirectTaskRecord r = read(store, key);
      if (r == null) {
        return;
      }
      into.put(key, r);
    }
  }

  /** The record at {@code key}, or null when there is none. */
  private static DirectTaskRecord read(ObjectStore store, String key) throws IOException {
    try {
      return CODEC.load(store, key);
    } catch (FileNotFoundException e) {
      return null;
    }
  }

  /** Files of attempts that did not commit and may still exist, minus the committed files. */
  static Set<String> leftovers(ObjectStore store, DirectTaskRecord r) throws IOException {
    Set<String> keys = new TreeSet<>();
    for (AttemptEntry e : r.attempts) {
      if (e.state == AttemptEntry.State.WRITING || e.state == AttemptEntry.State.ABORTING) {
        // an attempt that died in its abort left some of the keys it meant to delete
        keys.addAll(Leftovers.of(store, e, true));
      } else if (e.state == AttemptEntry.State.SUPERSEDED) {
        keys.addAll(Leftovers.of(store, e, false));
      }
    }
    keys.removeAll(r.committedKeys());
    return keys;
  }

  /**
   * The keys each attempt of a record may have written that exist now (its known files included), by attempt; the
   * committed files under the committed attempt. The union is {@link #everything}.
   */
  static Map<String, Set<String>> byAttempt(ObjectStore store, DirectTaskRecord r) throws IOException {
    Map<String, Set<String>> keys = new LinkedHashMap<>();
    for (AttemptEntry e : r.attempts) {
      if (e.state != AttemptEntry.State.ABORTED) {
        keys.computeIfAbsent(e.attempt, a -> new TreeSet<>()).addAll(Leftovers.of(store, e));
      }
    }
    if (r.committedAttempt != null) {
      keys.computeIfAbsent(r.committedAttempt, a -> new TreeSet<>()).addAll(r.committedKeys());
    }
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
