package io.objectcommit.codecs;

import java.io.IOException;

/**
 * Bytes that should be a BGZF block are not one (a truncated block, a gzip member without the BGZF field inside a
 * BGZF file, a CRC that does not match): reading fails rather than return wrong lines.
 */
public class BgzfFormatException extends IOException {

  private static final long serialVersionUID = 1L;

  private final String operation;
  private final long offset;

  public BgzfFormatException(String operation, long offset, String problem) {
    super(operation + " at offset " + offset + ": " + problem);
    this.operation = operation;
    this.offset = offset;
  }

  public BgzfFormatException(String operation, long offset, String problem, Throwable cause) {
    this(operation, offset, problem);
    initCause(cause);
  }

  /** What was being done: reading a block, finding the first block of a split. */
  public String operation() {
    return operation;
  }

  /** The offset in the compressed file of the block that is wrong. */
  public long offset() {
    return offset;
  }
}
