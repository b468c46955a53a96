package io.objectcommit.testsupport.proxy;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * The buffered input of one side of a proxied connection (one thread reads it): reads an HTTP line by scanning its
 * buffer instead of one synchronized {@code read()} per byte, as {@link java.io.BufferedInputStream} would.
 */
final class HttpInput extends InputStream {

  private final InputStream in;
  private final byte[] buf;
  private int pos;
  private int end;

  HttpInput(InputStream in, int bufferSize) {
    this.in = in;
    this.buf = new byte[bufferSize];
  }

  /** Refills an empty buffer; false at the end of the stream. */
  private boolean fill() throws IOException {
    int n = in.read(buf, 0, buf.length);
    if (n <= 0) {
      return false;
    }
    pos = 0;
    end = n;
    return true;
  }

  @Override
  public int read() throws IOException {
    if (pos == end && !fill()) {
      return -1;
    }
    return buf[pos++] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (pos == end) {
      if (len >= buf.length) {
        return in.read(b, off, len);
      }
      if (!fill()) {
        return -1;
      }
    }
    int n = Math.min(len, end - pos);
    System.arraycopy(buf, pos, b, off, n);
    pos += n;
    return n;
  }

  @Override
  public int available() throws IOException {
    return end - pos + in.available();
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  /**
   * The next line without its LF (and the CR before it); null if the stream ends before the line's first byte.
   *
   * @throws EOFException if the stream ends inside the line
   * @throws IOException if the line is longer than {@code maxLength} bytes
   */
  String readLine(int maxLength) throws IOException {
    byte[] partial = null;
    int partialLength = 0;
    while (true) {
      if (pos == end && !fill()) {
        if (partialLength == 0) {
          return null;
        }
        throw new EOFException("stream ended inside an HTTP line");
      }
      int lf = pos;
      while (lf < end && buf[lf] != '\n') {
        lf++;
      }
      int take = lf - pos;
      if (partialLength + take > maxLength) {
        throw new IOException("HTTP line longer than " + maxLength + " bytes");
      }
      if (lf < end && partial == null) {
        String line = text(buf, pos, take);
        pos = lf + 1;
        return line;
      }
      if (partial == null) {
        partial = new byte[Math.max(128, take * 2)];
      } else if (partialLength + take > partial.length) {
        partial = Arrays.copyOf(partial, Math.max(partial.length * 2, partialLength + take));
      }
      System.arraycopy(buf, pos, partial, partialLength, take);
      partialLength += take;
      if (lf < end) {
        pos = lf + 1;
        return text(partial, 0, partialLength);
      }
      pos = end;
    }
  }

  private static String text(byte[] b, int off, int len) {
    int n = len > 0 && b[off + len - 1] == '\r' ? len - 1 : len;
    return new String(b, off, n, StandardCharsets.ISO_8859_1);
  }
}
