package io.objectcommit.checkpoint.impl;

import java.io.EOFException;
import java.io.IOException;
import java.util.Objects;
import org.apache.hadoop.fs.FSExceptionMessages;

/** Argument checks of {@code PositionedReadable} reads, as the FileSystem specification asks. */
final class PositionedReads {

  private PositionedReads() {
  }

  /** One positioned read. */
  @FunctionalInterface
  interface Reader {
    int read(long position, byte[] buffer, int offset, int length) throws IOException;
  }

  /** {@code readFully} on top of positioned reads: EOFException when the file ends first. */
  static void readFully(Reader reader, String path, long position, byte[] buffer, int offset, int length)
      throws IOException {
    check(path, position, buffer, offset, length);
    int done = 0;
    while (done < length) {
      int n = reader.read(position + done, buffer, offset + done, length - done);
      if (n < 0) {
        throw new EOFException(path + ": " + FSExceptionMessages.EOF_IN_READ_FULLY);
      }
      done += n;
    }
  }

  /** The bounds of a seek: not before the start, not past the end (EOFException naming the path). */
  static void checkSeek(String path, long target, long size) throws EOFException {
    if (target < 0) {
      throw new EOFException(path + ": " + FSExceptionMessages.NEGATIVE_SEEK + " " + target);
    }
    if (target > size) {
      throw new EOFException(path + ": " + FSExceptionMessages.CANNOT_SEEK_PAST_EOF + " " + target);
    }
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
