package io.objectcommit.codecs;

import java.io.IOException;

/**
 * A unit of a gzip file read with its index decoded to other bytes than the index recorded (the CRC-32 of the unit
 * differs): the file is not the one the index was built from, or was changed while it was read. Nothing of the unit
 * was handed out; the task fails (and, retried, reads the file without the index if it no longer matches).
 */
public final class GzipIndexMismatchException extends IOException {

  private static final long serialVersionUID = 1L;

  private final String file;
  private final long offset;

  public GzipIndexMismatchException(String file, long offset) {
    super("gzip index of " + file + ": the bytes at compressed offset " + offset + " are not those it was built"
        + " from (the file changed, or the index belongs to another file)");
    this.file = file;
    this.offset = offset;
  }

  /** The gzip file (a path or URI; {@code "the file"} where the reader does not know it). */
  public String file() {
    return file;
  }

  /** The compressed offset of the unit that did not match. */
  public long offset() {
    return offset;
  }
}
