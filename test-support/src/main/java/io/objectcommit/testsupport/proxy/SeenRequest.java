package io.objectcommit.testsupport.proxy;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One request the proxy answered, as a test reads it afterwards: what it was ({@link S3Request}), the status it
 * got (0: connection reset by the proxy), its {@code Referer} header, where S3A and objectcommit put what a server
 * access log needs to attribute the request (null when the request had none), and its {@code User-Agent} (which
 * names the client: objectcommit's end with {@code objectcommit}), and its {@code Range}. Immutable.
 */
public final class SeenRequest {

  private final S3Request request;
  private final int status;
  private final String referrer;
  private final String userAgent;
  private final String range;

  SeenRequest(S3Request request, int status, String referrer, String userAgent, String range) {
    this.request = request;
    this.status = status;
    this.referrer = referrer;
    this.userAgent = userAgent;
    this.range = range;
  }

  public S3Request request() {
    return request;
  }

  public S3Operation operation() {
    return request.operation();
  }

  public int status() {
    return status;
  }

  /** The {@code User-Agent} header as sent, or null. */
  public String userAgent() {
    return userAgent;
  }

  /** Whether objectcommit sent it: its {@code User-Agent} names objectcommit (S3A's and Spark's do not). */
  public boolean fromObjectcommit() {
    return userAgent != null && userAgent.contains("objectcommit");
  }

  /** The {@code Range} header as sent (a GET of part of an object: {@code bytes=first-last}), or null. */
  public String range() {
    return range;
  }

  /**
   * The bytes a GET of an object of {@code objectLength} bytes asked for: its {@code Range} ({@code bytes=a-b},
   * {@code bytes=a-}, clipped to the object), or the whole object without one. The most the store can send for it.
   */
  public long requestedBytes(long objectLength) {
    if (range == null || !range.startsWith("bytes=") || range.contains(",")) {
      return objectLength;
    }
    String[] ends = range.substring("bytes=".length()).split("-", -1);
    if (ends[0].isEmpty()) {
      return Math.min(objectLength, Long.parseLong(ends[1].trim()));
    }
    long first = Long.parseLong(ends[0].trim());
    long last = ends[1].trim().isEmpty() ? objectLength - 1 : Math.min(objectLength - 1, Long.parseLong(ends[1].trim()));
    return Math.max(0, last - first + 1);
  }

  /** The {@code Referer} header as sent, or null. */
  public String referrer() {
    return referrer;
  }

  /**
   * The query parameters of the {@code Referer} URL, percent-decoded, in their order (empty without a header or
   * without a query). A {@code +} is a literal plus, as in the rest of an S3 request.
   */
  public Map<String, String> referrerParams() {
    if (referrer == null) {
      return Map.of();
    }
    int q = referrer.indexOf('?');
    if (q < 0) {
      return Map.of();
    }
    Map<String, String> m = new LinkedHashMap<>();
    for (String part : referrer.substring(q + 1).split("&")) {
      if (part.isEmpty()) {
        continue;
      }
      int eq = part.indexOf('=');
      m.put(decode(eq < 0 ? part : part.substring(0, eq)), eq < 0 ? "" : decode(part.substring(eq + 1)));
    }
    return Collections.unmodifiableMap(m);
  }

  /** The path of the {@code Referer} URL (such as {@code /hadoop/1/op_put/<span>/}), or null. */
  public String referrerPath() {
    if (referrer == null) {
      return null;
    }
    int scheme = referrer.indexOf("://");
    int start = referrer.indexOf('/', scheme < 0 ? 0 : scheme + 3);
    int q = referrer.indexOf('?');
    return start < 0 ? "" : referrer.substring(start, q < 0 ? referrer.length() : q);
  }

  private static String decode(String s) {
    return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return request + " -> " + status + (referrer == null ? "" : " Referer: " + referrer);
  }
}
