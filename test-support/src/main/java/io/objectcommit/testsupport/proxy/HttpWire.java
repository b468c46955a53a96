package io.objectcommit.testsupport.proxy;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Reading and copying HTTP/1.1 message heads and bodies (Content-Length, chunked, until-close). */
final class HttpWire {

  private static final int MAX_LINE = 64 * 1024;
  private static final int BUFFER = 64 * 1024;

  private HttpWire() {
  }

  /** Reads a message head; null at a clean end of stream before its first byte. */
  static HttpHead readHead(HttpInput in) throws IOException {
    String start = readLine(in, true);
    if (start == null) {
      return null;
    }
    HttpHead head = new HttpHead(start);
    String line;
    while (!(line = readLine(in, false)).isEmpty()) {
      int colon = line.indexOf(':');
      if (colon <= 0) {
        throw new IOException("malformed header line: " + line);
      }
      head.add(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
    }
    return head;
  }

  /** A line without its CRLF; null if the stream ends before the first byte and {@code eofOk}. */
  static String readLine(HttpInput in, boolean eofOk) throws IOException {
    String line = in.readLine(MAX_LINE);
    if (line == null && !eofOk) {
      throw new EOFException("stream ended before an expected HTTP line");
    }
    return line;
  }

  /** Copies exactly {@code n} bytes. */
  static void copyExactly(InputStream in, OutputStream out, long n) throws IOException {
    byte[] buf = new byte[BUFFER];
    long left = n;
    while (left > 0) {
      int r = in.read(buf, 0, (int) Math.min(buf.length, left));
      if (r < 0) {
        throw new EOFException("stream ended with " + left + " of " + n + " body bytes missing");
      }
      out.write(buf, 0, r);
      left -= r;
    }
  }

  /** Copies a chunked body as it is (chunk sizes, extensions and trailers included). */
  static void copyChunked(HttpInput in, OutputStream out) throws IOException {
    while (true) {
      String sizeLine = readLine(in, false);
      writeLine(out, sizeLine);
      long size = chunkSize(sizeLine);
      if (size == 0) {
        String trailer;
        do {
          trailer = readLine(in, false);
          writeLine(out, trailer);
        } while (!trailer.isEmpty());
        return;
      }
      copyExactly(in, out, size);
      String crlf = readLine(in, false);
      writeLine(out, crlf);
    }
  }

  /** Reads a chunked body and returns its decoded content (trailers dropped). */
  static byte[] readChunked(HttpInput in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (true) {
      long size = chunkSize(readLine(in, false));
      if (size == 0) {
        while (!readLine(in, false).isEmpty()) {
          // trailer fields are not needed
        }
        return out.toByteArray();
      }
      copyExactly(in, out, size);
      readLine(in, false);
    }
  }

  /** Copies until the stream ends. */
  static void copyToEnd(InputStream in, OutputStream out) throws IOException {
    in.transferTo(out);
  }

  /** Reads a whole body given its framing; {@code -1} length and not chunked means "until close". */
  static byte[] readBody(HttpInput in, HttpHead head, boolean untilCloseAllowed) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (head.isChunked()) {
      return readChunked(in);
    }
    long n = head.contentLength();
    if (n >= 0) {
      copyExactly(in, out, n);
    } else if (untilCloseAllowed) {
      copyToEnd(in, out);
    }
    return out.toByteArray();
  }

  private static long chunkSize(String line) throws IOException {
    int semi = line.indexOf(';');
    String hex = (semi < 0 ? line : line.substring(0, semi)).trim();
    try {
      return Long.parseLong(hex, 16);
    } catch (NumberFormatException e) {
      throw new IOException("bad chunk size line: " + line, e);
    }
  }

  private static void writeLine(OutputStream out, String line) throws IOException {
    out.write(line.getBytes(StandardCharsets.ISO_8859_1));
    out.write('\r');
    out.write('\n');
  }
}
