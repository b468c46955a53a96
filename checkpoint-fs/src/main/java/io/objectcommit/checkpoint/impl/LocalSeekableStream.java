package io.objectcommit.checkpoint.impl;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;

/** A seekable, positioned-readable stream over a local file. */
final class LocalSeekableStream extends InputStream implements Seekable, PositionedReadable {

  private final FileChannel ch;
  private final String path;
  private boolean closed;

  LocalSeekableStream(Path file, String path) throws IOException {
    this.ch = FileChannel.open(file, StandardOpenOption.READ);
    this.path = path;
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(path + ": " + FSExceptionMessages.STREAM_IS_CLOSED);
    }
  }

  @Override
  public synchronized int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n <= 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    checkOpen();
    if (len == 0) {
      return 0;
    }
    return ch.read(ByteBuffer.wrap(b, off, len));
  }

  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    return (int) Math.min(Integer.MAX_VALUE, Math.max(0, ch.size() - ch.position()));
  }

  @Override
  public synchronized long skip(long n) throws IOException {
    checkOpen();
    long target = Math.min(ch.size(), ch.position() + Math.max(0, n));
    long skipped = target - ch.position();
    ch.position(target);
    return skipped;
  }

  @Override
  public synchronized void seek(long pos) throws IOException {
    checkOpen();
    PositionedReads.checkSeek(path, pos, ch.size());
    ch.position(pos);
  }

  @Override
  public synchronized long getPos() throws IOException {
    checkOpen();
    return ch.position();
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
    return ch.read(ByteBuffer.wrap(buffer, offset, length), position);
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
  public synchronized void close() throws IOException {
    if (!closed) {
      closed = true;
      ch.close();
    }
  }
}
