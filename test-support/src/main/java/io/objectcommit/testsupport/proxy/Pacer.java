package io.objectcommit.testsupport.proxy;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * One direction of one client connection: counts the bytes that pass and holds them to the plan's bandwidth per
 * connection. Time idle on the connection earns no credit: a transfer that starts after a pause runs at the rate
 * from its first byte, as a link of that bandwidth would carry it.
 */
final class Pacer {

  private final LongSupplier bytesPerSecond;
  private final LongAdder total;
  private long freeAtNanos;

  /** {@code bytesPerSecond} is read at every transfer (0: unlimited); {@code total} gets every byte. */
  Pacer(LongSupplier bytesPerSecond, LongAdder total) {
    this.bytesPerSecond = bytesPerSecond;
    this.total = total;
  }

  /** Accounts for {@code n} bytes that just passed, and waits until a link of the current rate would have. */
  void passed(int n) throws InterruptedIOException {
    total.add(n);
    hold(n);
  }

  /** Waits until a link of the current rate would have carried {@code n} more bytes. */
  private void hold(int n) throws InterruptedIOException {
    long rate = bytesPerSecond.getAsLong();
    if (rate <= 0 || n <= 0) {
      return;
    }
    long now = System.nanoTime();
    freeAtNanos = Math.max(freeAtNanos, now) + n * 1_000_000_000L / rate;
    long waitNanos = freeAtNanos - now;
    if (waitNanos > 0) {
      try {
        Thread.sleep(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while holding a transfer to the proxy's bandwidth");
      }
    }
  }

  OutputStream wrap(OutputStream out) {
    return new FilterOutputStream(out) {
      // counted before the write: a client that has read the last byte must find it counted
      @Override
      public void write(int b) throws IOException {
        total.add(1);
        out.write(b);
        hold(1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        total.add(len);
        out.write(b, off, len);
        hold(len);
      }
    };
  }

  InputStream wrap(InputStream in) {
    return new FilterInputStream(in) {
      @Override
      public int read() throws IOException {
        int b = in.read();
        if (b >= 0) {
          passed(1);
        }
        return b;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int r = in.read(b, off, len);
        if (r > 0) {
          passed(r);
        }
        return r;
      }
    };
  }
}
