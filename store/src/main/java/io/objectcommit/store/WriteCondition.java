package io.objectcommit.store;

import java.util.Objects;

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
