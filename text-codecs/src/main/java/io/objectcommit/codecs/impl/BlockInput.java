package io.objectcommit.codecs.impl;

import java.io.IOException;
import java.io.InputStream;

/**
 * A window over a compressed stream read forward only: the bytes from some offset on are kept in memory so that a
 * block can be examined (and, when it is not one, the next offset tried) without seeking back, which would make
 * S3A switch to random reads. Large reads fill it, so that the stream underneath sees few calls.
 */
final class BlockInput {

  /** Room for a whole block wherever the window starts, plus as much again read ahead. */
  static final int CAPACITY = 2 * BgzfFormat.MAX_BLOCK_SIZE;

  private final InputStream in;
  private final byte[] buf = new byte[CAPACITY];
  private long base;
  private int count;
  private boolean eof;

  /** {@code in} is positioned at {@code offset}. */
  BlockInput(InputStream in, long offset) {
    this.in = in;
    this.base = offset;
  }

  /**
   * Makes the bytes {@code [offset, offset + n)} available in {@link #buffer()}, as far as the stream has them;
   * returns how many are (less than {@code n} only at the end of the stream). {@code offset} is at least the offset
   * of the last call and at most what was buffered; {@code n} is at most a block's size.
   */
  int ensure(long offset, int n) throws IOException {
    if (offset < base || offset > base + count || n > BgzfFormat.MAX_BLOCK_SIZE) {
      throw new IllegalStateException("window [" + base + ", " + (base + count) + ") asked for " + n + " bytes at "
          + offset);
    }
    if (offset + n > base + buf.length) {
      int from = (int) (offset - base);
      System.arraycopy(buf, from, buf, 0, count - from);
      count -= from;
      base = offset;
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
    return (int) Math.min(n, base + count - offset);
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
