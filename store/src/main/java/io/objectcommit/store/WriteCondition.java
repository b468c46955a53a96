package io.objectcommit.store;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Objects;
import org.apache.hadoop.fs.FileAlreadyExistsException;

/** The precondition of a write: none, "only if absent" (exclusive create) or "only if unchanged" (CAS). */
public final class WriteCondition {

  /** The kinds of condition. */
  public enum Kind {
    /** Unconditional: last writer wins. */
    NONE,
    /** {@code If-None-Match: *}: fails if any object exists at the key. */
    IF_ABSENT,
    /** {@code If-Match: <etag>}: fails unless the current object has this ETag. */
    IF_MATCH
  }

  private static final WriteCondition NONE = new WriteCondition(Kind.NONE, null);
  private static final WriteCondition IF_ABSENT = new WriteCondition(Kind.IF_ABSENT, null);

  private final Kind kind;
  private final String etag;

  private WriteCondition(Kind kind, String etag) {
    this.kind = kind;
    this.etag = etag;
  }

  public static WriteCondition none() {
    return NONE;
  }

  public static WriteCondition ifAbsent() {
    return IF_ABSENT;
  }

  public static WriteCondition ifMatch(String etag) {
    Objects.requireNonNull(etag, "etag");
    return new WriteCondition(Kind.IF_MATCH, ObjectInfo.stripQuotes(etag));
  }

  public Kind kind() {
    return kind;
  }

  /** The expected ETag of {@link Kind#IF_MATCH}, else null. */
  public String etag() {
    return etag;
  }

  public boolean isConditional() {
    return kind != Kind.NONE;
  }

  /**
   * The exception that reports this condition refused at {@code path} by {@code operation}, as {@link ObjectStore}
   * documents it: {@link FileAlreadyExistsException} for an exclusive create, {@link FileNotFoundException} for a
   * compare-and-swap of an object that is {@code gone}, else {@link ObjectChangedException}. The one wording of a
   * refusal, whether the store refused the request or a HEAD before it found the condition false (emulation).
   */
  public IOException refusedAt(String path, String operation, boolean gone) {
    if (kind == Kind.IF_ABSENT) {
      return new FileAlreadyExistsException(path + ": " + operation + ": an object already exists (exclusive"
          + " create, If-None-Match: *, refused)");
    }
    if (gone) {
      return new FileNotFoundException(path + ": " + operation + " (If-Match " + etag + "): the object no longer"
          + " exists");
    }
    return new ObjectChangedException(path, operation, etag);
  }

  @Override
  public String toString() {
    switch (kind) {
      case IF_ABSENT:
        return "If-None-Match: *";
      case IF_MATCH:
        return "If-Match: \"" + etag + "\"";
      default:
        return "unconditional";
    }
  }
}
