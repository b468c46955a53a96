package io.objectcommit.direct.files;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.objectcommit.store.files.JsonRecord;
import io.objectcommit.store.files.JsonRecordCodec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The bookkeeping of one task of one job, shared by all its attempts and updated with compare-and-swap writes:
 * each attempt's declared file groups (written before the attempt uploads a file of a new group), which attempt
 * committed and its exact files. Job commit reads one record per task; job abort and the cleanup command read
 * them to find every file of the job.
 */
public final class DirectTaskRecord extends JsonRecord {

  /** The record type: {@value}. */
  public static final String TYPE = "objectcommit/direct/task-record";
  /**
   * The version this code writes: {@value}. Version 2 added {@link #taskCount}; version 3 the attempt state
   * {@code ABORTING} and an ABORTED attempt's {@code files} (the keys its abort deleted). Versions 1 and 2 are still
   * read.
   */
  public static final int VERSION = 3;
  /** Reads and writes task records. */
  public static final JsonRecordCodec<DirectTaskRecord> CODEC = new JsonRecordCodec<>(DirectTaskRecord.class, TYPE,
      1, VERSION);

  @JsonProperty("jobId")
  public String jobId;
  @JsonProperty("task")
  public String task;
  @JsonProperty("committedAttempt")
  public String committedAttempt;
  @JsonProperty("committedFiles")
  public List<CommittedFile> committedFiles = new ArrayList<>();
  @JsonProperty("attempts")
  public List<AttemptEntry> attempts = new ArrayList<>();
  /**
   * The number of tasks of the committed attempt's stage as Spark told the attempt, 0 when unknown (MapReduce, a
   * version 1 record): job commit reads that many records at once instead of one after another.
   */
  @JsonProperty("taskCount")
  public int taskCount;
  /** Store request counters of the committed attempt (aggregated into {@code _SUCCESS}). */
  @JsonProperty("statistics")
  public Map<String, Long> statistics = new LinkedHashMap<>();

  public DirectTaskRecord() {
    super(TYPE, VERSION);
  }

  public DirectTaskRecord(String jobId, String task) {
    this();
    this.jobId = jobId;
    this.task = task;
  }

  @Override
  public void validate() {
    check(jobId != null && !jobId.isEmpty(), "no jobId");
    check(task != null && !task.isEmpty(), "no task");
    check(taskCount >= 0, "negative task count " + taskCount);
    Set<String> seen = new HashSet<>();
    for (AttemptEntry e : attempts) {
      check(e.attempt != null && seen.add(e.attempt), "missing or repeated attempt " + e.attempt);
      check(e.state != null, "attempt " + e.attempt + " without state");
    }
    check(committedAttempt == null || seen.contains(committedAttempt),
        "committed attempt " + committedAttempt + " has no entry");
  }

  public Optional<AttemptEntry> entry(String attempt) {
    return attempts.stream().filter(e -> e.attempt.equals(attempt)).findFirst();
  }

  /** The entry of an attempt, added in state WRITING if missing. */
  public AttemptEntry entryOrNew(String attempt) {
    Optional<AttemptEntry> e = entry(attempt);
    if (e.isPresent()) {
      return e.get();
    }
    AttemptEntry n = new AttemptEntry(attempt);
    attempts.add(n);
    return n;
  }

  /** The committed files' keys. */
  public Set<String> committedKeys() {
    Set<String> s = new HashSet<>();
    committedFiles.forEach(f -> s.add(f.key));
    return s;
  }

  /** A deep copy, to change without touching the loaded one. */
  public DirectTaskRecord copy() {
    DirectTaskRecord r = new DirectTaskRecord(jobId, task);
    r.committedAttempt = committedAttempt;
    r.taskCount = taskCount;
    committedFiles.forEach(f -> r.committedFiles.add(new CommittedFile(f.key, f.size)));
    attempts.forEach(e -> r.attempts.add(e.copy()));
    r.statistics = new LinkedHashMap<>(statistics);
    return r;
  }
}
