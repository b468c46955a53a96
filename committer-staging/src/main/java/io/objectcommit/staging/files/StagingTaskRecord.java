package io.objectcommit.staging.files;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.objectcommit.store.files.JsonRecord;
import io.objectcommit.store.files.JsonRecordCodec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * What one committed task attempt leaves for job commit: its pending uploads, and from version 2 the small files it
 * carries itself ({@link PendingFile#data}). Saved once per task at a key
 * derived from the job id and the task's index ({@code <dest>/.objectcommit-staging/<job>/task-000042.json}) with
 * an exclusive create, so that exactly one attempt of each task is committed; job commit reads the records by
 * index, never by listing. {@link #taskCount} tells job commit how many records to read.
 */
public final class StagingTaskRecord extends JsonRecord {

  /** The record type: {@value}. */
  public static final String TYPE = "objectcommit/staging/task-record";
  /** The version this code writes: {@value} (version 1, read too, has no files carried in the record). */
  public static final int VERSION = 2;
  /** Reads and writes task records. */
  public static final JsonRecordCodec<StagingTaskRecord> CODEC = new JsonRecordCodec<>(StagingTaskRecord.class, TYPE,
      1, VERSION);

  @JsonProperty("jobId")
  public String jobId;

  @JsonProperty("taskIndex")
  public int taskIndex;

  @JsonProperty("taskCount")
  public int taskCount;

  @JsonProperty("taskAttemptId")
  public String taskAttemptId;

  @JsonProperty("hostname")
  public String hostname;

  @JsonProperty("timestamp")
  public long timestamp;

  @JsonProperty("files")
  public List<PendingFile> files = new ArrayList<>();

  /** Counters of the task commit (bytes uploaded, durations), aggregated into {@code _SUCCESS}. */
  @JsonProperty("statistics")
  public TreeMap<String, Long> statistics = new TreeMap<>();

  public StagingTaskRecord() {
    super(TYPE, VERSION);
  }

  public StagingTaskRecord(String jobId, int taskIndex, int taskCount, String taskAttemptId, String hostname,
      List<PendingFile> files) {
    this();
    this.jobId = jobId;
    this.taskIndex = taskIndex;
    this.taskCount = taskCount;
    this.taskAttemptId = taskAttemptId;
    this.hostname = hostname;
    this.timestamp = System.currentTimeMillis();
    this.files = new ArrayList<>(files);
  }

  /** Bytes of the files the record carries itself. */
  public long inlineBytes() {
    long n = 0;
    for (PendingFile f : files) {
      if (f.inline()) {
        n += f.length;
      }
    }
    return n;
  }

  /** Total bytes of the task's files. */
  public long bytes() {
    long n = 0;
    for (PendingFile f : files) {
      n += f.length;
    }
    return n;
  }

  @Override
  public void validate() {
    check(jobId != null && !jobId.isEmpty(), "no job id");
    check(taskIndex >= 0, "negative task index " + taskIndex);
    check(taskCount == 0 || taskIndex < taskCount, "task index " + taskIndex + " outside the task count " + taskCount);
    check(taskAttemptId != null && !taskAttemptId.isEmpty(), "no task attempt id");
    check(files != null, "no file list");
    Set<String> paths = new HashSet<>();
    for (PendingFile f : files) {
      check(f != null, "a null file");
      f.validate("task " + taskIndex);
      check(paths.add(f.path), "file " + f.path + " listed twice");
    }
    check(statistics != null, "no statistics");
  }
}
