package io.objectcommit.checkpoint.impl;

import java.io.EOFException;
import java.util.Objects;
import org.apache.hadoop.fs.FSExceptionMessages;

/** Argument checks of {@code PositionedReadable} reads, as the FileSystem specification asks. */
final class PositionedReads {

  private PositionedReads() {
  }

  static void check(String path, long position, byte[] buffer, int offset, int length) throws EOFException {
    if (buffer == null) {
      throw new IllegalArgumentException(path + ": null read buffer");
    }
    Objects.checkFromIndexSize(offset, length, buffer.length);
    if (position < 0) {
      throw new EOFException(path + ": " + FSExceptionMessages.NEGATIVE_SEEK + " " + position);
    }
  }
}
