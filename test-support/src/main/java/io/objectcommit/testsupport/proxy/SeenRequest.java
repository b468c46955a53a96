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
 * names the client: objectcommit's end with {@code objectcommit}). Immutable.
 */
public final class SeenRequest {

  private final S3Request request;
  private final int status;
  private final String referrer;
  private final String userAgent;

  SeenRequest(S3Request request, int status, String referrer, String userAgent) {
    this.request = request;
    this.status = status;
    this.referrer = referrer;
    this.userAgent = userAgent;
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
