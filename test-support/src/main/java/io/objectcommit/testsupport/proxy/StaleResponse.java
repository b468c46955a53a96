package io.objectcommit.testsupport.proxy;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;

/** Answers a GET or HEAD with a remembered object version, honouring a single {@code Range: bytes=} range. */
final class StaleResponse {

  private StaleResponse() {
  }

  /** Writes the response; returns its status (200 or 206). */
  static int send(StoredObject object, boolean head, String range, boolean close, OutputStream out)
      throws IOException {
    int length = object.length();
    long[] r = parseRange(range, length);
    int status = r == null ? 200 : 206;
    HttpHead h = new HttpHead(status == 200 ? "HTTP/1.1 200 OK" : "HTTP/1.1 206 Partial Content");
    object.headers().forEach(h::add);
    h.add("Accept-Ranges", "bytes");
    long from = r == null ? 0 : r[0];
    long to = r == null ? length - 1 : r[1];
    if (r != null) {
      h.add("Content-Range", "bytes " + from + "-" + to + "/" + length);
    }
    h.add("Content-Length", Long.toString(Math.max(0, to - from + 1)));
    if (close) {
      h.add("Connection", "close");
    }
    h.writeTo(out);
    if (!head && to >= from) {
      out.write(object.bytes(), (int) from, (int) (to - from + 1));
    }
    out.flush();
    return status;
  }

  /** {@code [from, to]} inclusive, clamped to the object; null for no (or an unsupported) range. */
  static long[] parseRange(String range, long length) {
    if (range == null || length == 0) {
      return null;
    }
    String r = range.trim().toLowerCase(Locale.ROOT);
    if (!r.startsWith("bytes=") || r.contains(",")) {
      return null;
    }
    String spec = r.substring("bytes=".length());
    int dash = spec.indexOf('-');
    if (dash < 0) {
      return null;
    }
    String a = spec.substring(0, dash).trim();
    String b = spec.substring(dash + 1).trim();
    long from;
    long to;
    if (a.isEmpty()) {
      long suffix = Long.parseLong(b);
      from = Math.max(0, length - suffix);
      to = length - 1;
    } else {
      from = Long.parseLong(a);
      to = b.isEmpty() ? length - 1 : Math.min(Long.parseLong(b), length - 1);
    }
    return from > to || from >= length ? null : new long[] {from, to};
  }
}
