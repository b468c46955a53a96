package io.objectcommit.store.impl;

import java.io.FilterInputStream;
import java.io.IOException;
import java.util.function.LongConsumer;

/**
 * The body of a GET: counts the bytes read, and on an early close aborts the HTTP connection instead of
 * draining what is left. {@link #close()} is idempotent.
 */
final class ObjectInputStream extends FilterInputStream {

  private final S3Calls.ObjectBody object;
  private final LongConsumer bytesRead;
  private long count;
  private boolean eof;
  private boolean closed;

  ObjectInputStream(S3Calls.ObjectBody object, LongConsumer bytesRead) {
    super(object.content());
    this.object = object;
    this.bytesRead = bytesRead;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b < 0) {
      eof = true;
    } else {
      count++;
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = super.read(b, off, len);
    if (n < 0) {
      eof = true;
    } else {
      count += n;
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long s = super.skip(n);
    count += s;
    return s;
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    bytesRead.accept(count);
    if (!eof) {
      object.abort(); // do not read the rest of a large object just to reuse the connection
    }
    object.close();
  }
}
