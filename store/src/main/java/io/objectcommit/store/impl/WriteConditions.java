package io.objectcommit.store.impl;

import io.objectcommit.store.WriteCondition;

/**
 * How a {@link WriteCondition} is sent: the request header of each binding (what its refusal means is
 * {@link WriteCondition#refusedAt}).
 */
public final class WriteConditions {

  private WriteConditions() {
  }

  /** The request header a condition is sent as ({@code If-None-Match} or {@code If-Match}); null for none. */
  public static String headerName(WriteCondition c) {
    switch (c.kind()) {
      case IF_ABSENT:
        return "If-None-Match";
      case IF_MATCH:
        return "If-Match";
      default:
        return null;
    }
  }

  /** The value of {@link #headerName}: {@code *}, or the quoted ETag. */
  public static String headerValue(WriteCondition c) {
    return c.kind() == WriteCondition.Kind.IF_ABSENT ? "*" : "\"" + c.etag() + "\"";
  }
}
