package io.objectcommit.checkpoint.impl;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;

/**
 * Reads a file whose bytes were kept in its directory's manifest: from memory, no request. The same contract as
 * {@link ObjectSeekableStream} (the FileSystem specification's seek and positioned reads).
 */
final class InlineSeekableStream extends InputStream implements Seekable, PositionedReadable {

  private final byte[] bytes;
  private final String path;
  private int pos;
  private boolean closed;

  InlineSeekableStream(byte[] bytes, String path) {
    this.bytes = bytes;
    this.path = path;
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(path + ": " + FSExceptionMessages.STREAM_IS_CLOSED);
    }
  }

  @Override
  public synchronized int read() throws IOException {
    checkOpen();
    return pos < bytes.length ? bytes[pos++] & 0xff : -1;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    checkOpen();
    if (len == 0) {
      return 0;
    }
    int n = read(pos, b, off, len);
    if (n > 0) {
      pos += n;
    }
    return n;
  }

  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    return bytes.length - pos;
  }

  @Override
  public synchronized long skip(long n) throws IOException {
    checkOpen();
    int target = (int) Math.min(bytes.length, pos + Math.max(0, n));
    long skipped = target - pos;
    pos = target;
    return skipped;
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    checkOpen();
    PositionedReads.checkSeek(path, target, bytes.length);
    pos = (int) target;
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
    if (position >= bytes.length) {
      return -1;
    }
    int n = (int) Math.min(length, bytes.length - position);
    System.arraycopy(bytes, (int) position, buffer, offset, n);
    return n;
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    PositionedReads.readFully(this::read, path, position, buffer, offset, length);
  }

  @Override
  public void readFully(long position, byte[] buffer) throws IOException {
    readFully(position, buffer, 0, buffer.length);
  }

  @Override
  public synchronized void close() {
    closed = true;
  }
}
