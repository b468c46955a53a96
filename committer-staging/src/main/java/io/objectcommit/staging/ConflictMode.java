package io.objectcommit.staging;

import java.util.Locale;

/** What job commit does when the destination (or a partition written) already holds data. */
public enum ConflictMode {
  /** Fail job commit; nothing of the job becomes visible and its uploads are aborted. */
  FAIL,
  /** Add the new files beside the old ones. */
  APPEND,
  /** Delete the old objects at job commit, once every new file is uploaded, then complete the new ones. */
  REPLACE;

  /** The mode named {@code fail}, {@code append} or {@code replace} (case-insensitive). */
  public static ConflictMode parse(String name, String key) {
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Invalid value '" + name + "' of " + key
          + ": expected one of fail, append, replace");
    }
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
