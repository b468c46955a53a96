package io.objectcommit.store.impl;

import java.io.IOException;
import java.io.InputStream;

/** The first bytes of a stream, read up to a limit: all of it when the stream is shorter than the limit. */
final class BufferedStart {

  private final byte[] buffer;
  private final int length;
  private final boolean complete;

  private BufferedStart(byte[] buffer, int length, boolean complete) {
    this.buffer = buffer;
    this.length = length;
    this.complete = complete;
  }

  /** Reads up to {@code limit} bytes; {@link #complete()} tells whether the stream ended within them. */
  static BufferedStart read(InputStream in, long limit) throws IOException {
    int cap = (int) Math.min(limit, Integer.MAX_VALUE - 16);
    byte[] buf = new byte[Math.min(cap, 64 * 1024)];
    int n = 0;
    while (n < cap) {
      if (n == buf.length) {
        byte[] bigger = new byte[(int) Math.min(cap, (long) buf.length * 2)];
        System.arraycopy(buf, 0, bigger, 0, n);
        buf = bigger;
      }
      int r = in.read(buf, n, buf.length - n);
      if (r < 0) {
        return new BufferedStart(buf, n, true);
      }
      n += r;
    }
    int next = in.read();
    if (next < 0) {
      return new BufferedStart(buf, n, true);
    }
    // One byte past the limit: keep it, the stream goes on.
    byte[] withNext = new byte[n + 1];
    System.arraycopy(buf, 0, withNext, 0, n);
    withNext[n] = (byte) next;
    return new BufferedStart(withNext, n + 1, false);
  }

  byte[] buffer() {
    return buffer;
  }

  int length() {
    return length;
  }

  /** True when the stream ended within the limit. */
  boolean complete() {
    return complete;
  }
}
