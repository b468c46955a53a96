package io.objectcommit.checkpoint.impl;

import io.objectcommit.store.ObjectStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;

/**
 * Reads an immutable file of known size: a data object, whose HTTP stream is opened lazily at the current position
 * and reopened after a seek and whose positioned reads are ranged GETs (data objects never change, so every range
 * reads the same version); or a small file's bytes kept in its manifest ({@link #ofBytes}), read from memory.
 */
final class ObjectSeekableStream extends InputStream implements Seekable, PositionedReadable {

  /** Opens the file's bytes from {@code start} to {@code end} (exclusive; -1: to the end). */
  @FunctionalInterface
  interface Ranges {
    InputStream open(long start, long end) throws IOException;
  }

  private final Ranges ranges;
  private final long size;
  private final String path;
  private InputStream in;
  private long pos;
  private boolean closed;

  ObjectSeekableStream(ObjectStore store, String key, long size, String path) {
    this((start, end) -> store.open(key, start, end), size, path);
  }

  private ObjectSeekableStream(Ranges ranges, long size, String path) {
    this.ranges = ranges;
    this.size = size;
    this.path = path;
  }

  /** A small file whose bytes were kept in its directory's manifest: no request. */
  static ObjectSeekableStream ofBytes(byte[] bytes, String path) {
    return new ObjectSeekableStream((start, end) -> new ByteArrayInputStream(bytes, (int) start,
        (int) ((end < 0 ? bytes.length : end) - start)), bytes.length, path);
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(path + ": " + FSExceptionMessages.STREAM_IS_CLOSED);
    }
  }

  private InputStream stream() throws IOException {
    if (in == null) {
      in = ranges.open(pos, -1);
    }
    return in;
  }

  @Override
  public synchronized int read() throws IOException {
    checkOpen();
    if (pos >= size) {
      return -1;
    }
    int b = stream().read();
    if (b >= 0) {
      pos++;
    }
    return b;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    // InputStream's contract, before anything else: a null buffer is a NullPointerException, a range outside it an
    // IndexOutOfBoundsException (Hadoop 3.4's open contract checks the first), whatever the position or stream.
    Objects.checkFromIndexSize(off, len, b.length);
    checkOpen();
    if (len == 0) {
      return 0;
    }
    if (pos >= size) {
      return -1;
    }
    int n = stream().read(b, off, (int) Math.min(len, size - pos));
    if (n > 0) {
      pos += n;
    }
    return n;
  }

  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    return (int) Math.min(Integer.MAX_VALUE, size - pos);
  }

  @Override
  public synchronized long skip(long n) throws IOException {
    checkOpen();
    long target = Math.min(size, pos + Math.max(0, n));
    long skipped = target - pos;
    seek(target);
    return skipped;
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    checkOpen();
    PositionedReads.checkSeek(path, target, size);
    if (target != pos) {
      closeStream();
      pos = target;
    }
  }

  @Override
  public synchronized long getPos() {
    return pos;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }

  @Override
  public int read(long position, byte[] buffer, int offset, int length) throws IOException {
    checkOpen();
    PositionedReads.check(path, position, buffer, offset, length);
    if (length == 0) {
      return 0;
    }
    if (position >= size) {
      return -1;
    }
    int n = (int) Math.min(length, size - position);
    try (InputStream r = ranges.open(position, position + n)) {
      int total = 0;
      while (total < n) {
        int k = r.read(buffer, offset + total, n - total);
        if (k < 0) {
          break;
        }
        total += k;
      }
      return total;
    }
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    PositionedReads.readFully(this::read, path, position, buffer, offset, length);
  }

  @Override
  public void readFully(long position, byte[] buffer) throws IOException {
    readFully(position, buffer, 0, buffer.length);
  }

  private void closeStream() throws IOException {
    if (in != null) {
      InputStream s = in;
      in = null;
      s.close();
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (!closed) {
      closed = true;
      closeStream();
    }
  }
}
