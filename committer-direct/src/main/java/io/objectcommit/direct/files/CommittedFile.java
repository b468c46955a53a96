package io.objectcommit.direct.files;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

/** A file of a committed task attempt: its key and size. */
@JsonIgnoreProperties(ignoreUnknown = true)
public final class CommittedFile {

  @JsonProperty("key")
  public String key;
  @JsonProperty("size")
  public long size;

  public CommittedFile() {
  }

  public CommittedFile(String key, long size) {
    this.key = key;
    this.size = size;
  }
}
