package io.objectcommit.direct.files;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;

/** One attempt of a task in its {@link DirectTaskRecord}: what it declared, what it is known to have written, its state. */
@JsonIgnoreProperties(ignoreUnknown = true)
public final class AttemptEntry {

  /** Where an attempt stands. */
  public enum State {
    /** Declared groups and may be writing (or crashed: nobody cleaned up after it). */
    WRITING,
    /**
     * Aborting by itself: {@code files} are the keys its abortTask is deleting. Recorded before the first delete, so
     * that an attempt committing the same keys waits for it, then checks its own files are still there.
     */
    ABORTING,
    /** Aborted by itself: its abortTask deleted {@code files} (empty in records written before ABORTING existed). */
    ABORTED,
    /** Another attempt committed and deleted this one's files; re-checked at job commit in case it was a zombie. */
    SUPERSEDED,
    /** This attempt committed the task. */
    COMMITTED
  }

  @JsonProperty("attempt")
  public String attempt;
  @JsonProperty("state")
  public State state = State.WRITING;
  @JsonProperty("groups")
  public List<FileGroup> groups = new ArrayList<>();
  /** Keys known to be uploaded when the entry was last written (a subset of the groups' keys). */
  @JsonProperty("files")
  public List<String> files = new ArrayList<>();

  public AttemptEntry() {
  }

  public AttemptEntry(String attempt) {
    this.attempt = attempt;
  }

  AttemptEntry copy() {
    AttemptEntry e = new AttemptEntry(attempt);
    e.state = state;
    e.groups = new ArrayList<>(groups);
    e.files = new ArrayList<>(files);
    return e;
  }
}
