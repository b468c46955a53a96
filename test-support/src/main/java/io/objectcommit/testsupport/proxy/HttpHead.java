package io.objectcommit.testsupport.proxy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The head of an HTTP/1.1 message: the start line and the header fields in their original order and spelling.
 * Mutable, owned by one connection.
 */
final class HttpHead {

  private final String startLine;
  private final List<String[]> fields = new ArrayList<>();

  HttpHead(String startLine) {
    this.startLine = startLine;
  }

  String startLine() {
    return startLine;
  }

  /** For a request: the method. */
  String method() {
    return startLine.substring(0, startLine.indexOf(' '));
  }

  /** For a request: the target ({@code /bucket/key?query}). */
  String target() {
    int a = startLine.indexOf(' ');
    int b = startLine.lastIndexOf(' ');
    return startLine.substring(a + 1, b > a ? b : startLine.length());
  }

  /** For a response: the status code. */
  int status() {
    String[] parts = startLine.split(" ", 3);
    return Integer.parseInt(parts[1]);
  }

  void add(String name, String value) {
    fields.add(new String[] {name, value});
  }

  /** The first value of a header (case-insensitive name), or null. */
  String get(String name) {
    for (String[] f : fields) {
      if (f[0].equalsIgnoreCase(name)) {
        return f[1];
      }
    }
    return null;
  }

  void remove(String name) {
    fields.removeIf(f -> f[0].equalsIgnoreCase(name));
  }

  void set(String name, String value) {
    remove(name);
    add(name, value);
  }

  List<String[]> fields() {
    return fields;
  }

  boolean isChunked() {
    String te = get("Transfer-Encoding");
    return te != null && te.toLowerCase(Locale.ROOT).contains("chunked");
  }

  /** The Content-Length, or -1 when absent. */
  long contentLength() {
    String cl = get("Content-Length");
    return cl == null ? -1 : Long.parseLong(cl.trim());
  }

  boolean wantsClose() {
    String c = get("Connection");
    return c != null && c.toLowerCase(Locale.ROOT).contains("close");
  }

  void writeTo(OutputStream out) throws IOException {
    StringBuilder sb = new StringBuilder(startLine).append("\r\n");
    for (String[] f : fields) {
      sb.append(f[0]).append(": ").append(f[1]).append("\r\n");
    }
    sb.append("\r\n");
    out.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
  }

  @Override
  public String toString() {
    return startLine;
  }
}
