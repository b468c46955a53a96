package io.objectcommit.direct.files;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.objectcommit.fs.files.JsonRecord;
import io.objectcommit.fs.files.JsonRecordCodec;
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
public final class TaskRecord extends JsonRecord {

  public static final String TYPE = "io.objectcommit.direct.TaskRecord";
  public static final int VERSION = 1;

  public static JsonRecordCodec<TaskRecord> codec() {
    return new JsonRecordCodec<>(TaskRecord.class, TYPE, 1, VERSION);
  }

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
  /** Store request counters of the committed attempt (aggregated into {@code _SUCCESS}). */
  @JsonProperty("statistics")
  public Map<String, Long> statistics = new LinkedHashMap<>();

  public TaskRecord() {
    super(TYPE, VERSION);
  }

  public TaskRecord(String jobId, String task) {
    this();
    this.jobId = jobId;
    this.task = task;
  }

  @Override
  public void validate() {
    check(jobId != null && !jobId.isEmpty(), "no jobId");
    check(task != null && !task.isEmpty(), "no task");
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
  public TaskRecord copy() {
    TaskRecord r = new TaskRecord(jobId, task);
    r.committedAttempt = committedAttempt;
    committedFiles.forEach(f -> r.committedFiles.add(new CommittedFile(f.key, f.size)));
    attempts.forEach(e -> r.attempts.add(e.copy()));
    r.statistics = new LinkedHashMap<>(statistics);
    return r;
  }
}
