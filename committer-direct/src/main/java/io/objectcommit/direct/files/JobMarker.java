package io.objectcommit.direct.files;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.objectcommit.store.files.JsonRecord;
import io.objectcommit.store.files.JsonRecordCodec;

/**
 * Written by job commit once every task's leftovers are removed and before {@code _SUCCESS}: tells the cleanup
 * command that the job's files are complete even if the driver died before deleting the bookkeeping.
 */
public final class JobMarker extends JsonRecord {

  /** The record type: {@value}. */
  public static final String TYPE = "objectcommit/direct/job-marker";
  /** The version this code writes: {@value}. */
  public static final int VERSION = 1;
  /** Reads and writes job markers. */
  public static final JsonRecordCodec<JobMarker> CODEC = new JsonRecordCodec<>(JobMarker.class, TYPE, 1, VERSION);
  public static final String COMMITTED = "COMMITTED";

  @JsonProperty("jobId")
  public String jobId;
  @JsonProperty("state")
  public String state = COMMITTED;
  @JsonProperty("timestamp")
  public long timestamp;
  @JsonProperty("tasks")
  public int tasks;
  @JsonProperty("files")
  public long files;

  public JobMarker() {
    super(TYPE, VERSION);
  }

  @Override
  public void validate() {
    check(jobId != null && !jobId.isEmpty(), "no jobId");
    check(COMMITTED.equals(state), "unknown state " + state);
  }
}
