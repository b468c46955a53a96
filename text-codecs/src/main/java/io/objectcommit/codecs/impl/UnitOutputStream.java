package io.objectcommit.codecs.impl;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.io.compress.CompressionOutputStream;

/**
 * A compressed text stream written in independent units (BGZF blocks, zstd frames) of a fixed content size: the
 * content is gathered until a unit is full and then handed to {@link #writeUnit}. A unit that would end with a CR ends
 * one byte earlier (the CR opens the next unit), so that no line delimiter straddles a unit boundary in a way
 * Hadoop's line reader has to guess about ({@link UnitSplitInputStream} is the reading side). {@link #finish()}
 * writes what is pending and the format's end ({@link #writeEnd}); content written after it starts anew.
 */
abstract class UnitOutputStream extends CompressionOutputStream {

  private final byte[] pending;
  private final String format;
  private int count;
  private boolean finished;
  private boolean closed;

  /** Units of {@code unitSize} content bytes; {@code format} names the format in errors. */
  UnitOutputStream(OutputStream out, int unitSize, String format) {
    super(out);
    if (unitSize < 2) {
      throw new IllegalArgumentException(format + " unit content size " + unitSize);
    }
    this.pending = new byte[unitSize];
    this.format = format;
  }

  /** Compresses and writes {@code data[0, n)} as one unit. */
  abstract void writeUnit(byte[] data, int n) throws IOException;

  /** Writes what ends the format's content at {@link #finish()} (an end-of-file block, a seek table). */
  abstract void writeEnd() throws IOException;

  /** Content is written again after {@link #finish()} or {@link #resetState()}: what the format keeps starts anew. */
  void restarted() {
  }

  /** Frees the compressor's resources; called once, at {@link #close()}. */
  abstract void release();

  @Override
  public final void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public final void write(byte[] b, int off, int len) throws IOException {
    if (closed) {
      throw new IOException(format + " stream closed");
    }
    if (finished) {
      finished = false;
      restarted();
    }
    while (len > 0) {
      int n = Math.min(len, pending.length - count);
      System.arraycopy(b, off, pending, count, n);
      count += n;
      off += n;
      len -= n;
      if (count == pending.length) {
        emit(pending[count - 1] == '\r' ? count - 1 : count);
      }
    }
  }

  /** Writes the first {@code n} pending bytes as one unit; what follows them stays pending. */
  private void emit(int n) throws IOException {
    writeUnit(pending, n);
    System.arraycopy(pending, n, pending, 0, count - n);
    count -= n;
  }

  @Override
  public final void finish() throws IOException {
    if (finished || closed) {
      return;
    }
    while (count > 0) {
      emit(count);
    }
    writeEnd();
    finished = true;
  }

  @Override
  public final void resetState() {
    count = 0;
    finished = false;
    restarted();
  }

  @Override
  public final void close() throws IOException {
    if (closed) {
      return;
    }
    try {
      super.close();
    } finally {
      closed = true;
      release();
    }
  }
}
