package io.objectcommit.codecs;

import java.io.IOException;

/**
 * Bytes that should be a zstd frame of a file read split are not one (a truncated or damaged frame, a checksum that
 * does not match, a frame too large or without a content size after frames that had one): reading fails rather than
 * return wrong lines.
 */
public class ZstdFormatException extends IOException {

  private static final long serialVersionUID = 1L;

  private final String operation;
  private final long offset;

  public ZstdFormatException(String operation, long offset, String problem) {
    super(operation + " at offset " + offset + ": " + problem);
    this.operation = operation;
    this.offset = offset;
  }

  /** What was being done: reading a frame. */
  public String operation() {
    return operation;
  }

  /** The offset in the compressed file of the frame that is wrong. */
  public long offset() {
    return offset;
  }
}
