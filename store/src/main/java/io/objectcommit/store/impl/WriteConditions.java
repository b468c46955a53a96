package io.objectcommit.store.impl;

import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.WriteCondition;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileAlreadyExistsException;

/** How a {@link WriteCondition} is sent (request headers) and what its refusal means (the exception). */
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

  /**
   * The exception of a refused condition: {@link FileAlreadyExistsException} for an exclusive create,
   * {@link FileNotFoundException} for a compare-and-swap of an object that is gone, else
   * {@link ObjectChangedException}.
   */
  static IOException refusal(String path, String op, WriteCondition c, boolean gone) {
    if (c.kind() == WriteCondition.Kind.IF_ABSENT) {
      return new FileAlreadyExistsException(path + ": " + op + ": an object already exists (exclusive create,"
          + " If-None-Match: *, refused)");
    }
    if (gone) {
      return new FileNotFoundException(path + ": " + op + " (If-Match " + c.etag() + "): the object no longer"
          + " exists");
    }
    return new ObjectChangedException(path, op, c.etag());
  }

  /** The {@link io.objectcommit.store.ObjectStore} method a write of this condition is, for messages. */
  static String operationName(WriteCondition c) {
    switch (c.kind()) {
      case IF_ABSENT:
        return "createExclusive";
      case IF_MATCH:
        return "replaceIfMatch";
      default:
        return "put";
    }
  }
}
