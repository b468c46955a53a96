package io.objectcommit.codecs.impl;

import java.io.IOException;
import java.io.InputStream;

/**
 * A window over a compressed stream read forward only: the bytes from some offset on are kept in memory so that a
 * block or frame can be examined (and, when it is not one, the next offset tried) without seeking back, which would
 * make S3A switch to random reads. Large reads fill it, so that the stream underneath sees few calls.
 */
final class BlockInput {

  private final InputStream in;
  private final int maxRequest;
  private byte[] buf;
  private long base;
  private int count;
  private boolean eof;

  /** {@code in} is positioned at {@code offset}; requests are of at most a BGZF block. */
  BlockInput(InputStream in, long offset) {
    this(in, offset, BgzfFormat.MAX_BLOCK_SIZE);
  }

  /**
   * {@code in} is positioned at {@code offset}; requests are of at most {@code maxRequest} bytes. The window starts
   * with room for two BGZF blocks and grows (to twice the largest request at most) only when a request needs it.
   */
  BlockInput(InputStream in, long offset, int maxRequest) {
    this.in = in;
    this.base = offset;
    this.maxRequest = maxRequest;
    this.buf = new byte[2 * Math.min(maxRequest, BgzfFormat.MAX_BLOCK_SIZE)];
  }

  /**
   * Makes the bytes {@code [offset, offset + n)} available in {@link #buffer()}, as far as the stream has them;
   * returns how many are (less than {@code n} only at the end of the stream). {@code offset} is at least the offset
   * of the last call (bytes before it are dropped, bytes up to it that were not buffered are read and dropped);
   * {@code n} is at most the request size given at construction.
   */
  int ensure(long offset, int n) throws IOException {
    if (offset < base || n > maxRequest) {
      throw new IllegalStateException("window [" + base + ", " + (base + count) + ") asked for " + n + " bytes at "
          + offset);
    }
    if (offset > base + count) {
      skipTo(offset);
    }
    if (offset + n > base + buf.length) {
      int from = (int) (offset - base);
      System.arraycopy(buf, from, buf, 0, count - from);
      count -= from;
      base = offset;
      if (n > buf.length) {
        byte[] larger = new byte[(int) Math.min(2L * maxRequest, Math.max(2L * buf.length, n))];
        System.arraycopy(buf, 0, larger, 0, count);
        buf = larger;
      }
    }
    long wanted = offset + n - base;
    while (count < wanted && !eof) {
      int r = in.read(buf, count, buf.length - count);
      if (r < 0) {
        eof = true;
      } else {
        count += r;
      }
    }
    return (int) Math.max(0, Math.min(n, base + count - offset));
  }

  /** Drops the window and reads forward to {@code offset} (or the end of the stream). */
  private void skipTo(long offset) throws IOException {
    base += count;
    count = 0;
    while (base < offset && !eof) {
      int r = in.read(buf, 0, (int) Math.min(buf.length, offset - base));
      if (r < 0) {
        eof = true;
      } else {
        base += r;
      }
    }
    if (base < offset) {
      // the stream ended before: nothing at offset
      base = offset;
    }
  }

  /**
   * Whether {@link #ensure} may be asked for {@code offset} and what follows in requests of {@code request} bytes:
   * so a reader can go on from this window instead of seeking the stream back.
   */
  boolean canServe(long offset, int request) {
    return offset >= base && request <= maxRequest;
  }

  /** How many bytes from {@code offset} on the window holds (read from the stream, not yet examined). */
  int bufferedFrom(long offset) {
    return (int) (base + count - offset);
  }

  /** The window's bytes; valid until the next {@link #ensure}. */
  byte[] buffer() {
    return buf;
  }

  /** Where the byte at {@code offset} is in {@link #buffer()}. */
  int index(long offset) {
    return (int) (offset - base);
  }
}
