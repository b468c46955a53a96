package io.objectcommit.store.files;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A record persisted as JSON: every document carries its {@code type} and {@code version}, and is validated when
 * loaded. Subclasses are plain Jackson beans with a public no-argument constructor; they set the type and version
 * in that constructor and check their invariants in {@link #validate()}.
 *
 * <p>Unknown fields are ignored, so that a newer writer may add optional fields without breaking older readers;
 * a change older readers cannot understand must raise the version.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public abstract class JsonRecord {

  @JsonProperty("type")
  private String type;

  @JsonProperty("version")
  private int version;

  protected JsonRecord(String type, int version) {
    this.type = type;
    this.version = version;
  }

  public String getType() {
    return type;
  }

  public int getVersion() {
    return version;
  }

  /**
   * Checks the record's invariants after loading (and before saving).
   *
   * @throws IllegalStateException naming what is wrong
   */
  public abstract void validate();

  /** Helper for {@link #validate()}: fails with {@code message} unless {@code condition}. */
  protected static void check(boolean condition, String message) {
    if (!condition) {
      throw new IllegalStateException(message);
    }
  }
}
