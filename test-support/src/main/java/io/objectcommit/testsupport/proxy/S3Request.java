package io.objectcommit.testsupport.proxy;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One S3 request as the proxy understands it: method, path-style bucket and key, query parameters, and the
 * {@link S3Operation} it is. Immutable. Only path-style addressing ({@code /bucket/key}) is recognised.
 */
public final class S3Request {

  private final String method;
  private final String bucket;
  private final String key;
  private final Map<String, String> query;
  private final S3Operation operation;

  private S3Request(String method, String bucket, String key, Map<String, String> query, S3Operation operation) {
    this.method = method;
    this.bucket = bucket;
    this.key = key;
    this.query = Collections.unmodifiableMap(query);
    this.operation = operation;
  }

  /**
   * Classifies a request.
   *
   * @param method the HTTP method
   * @param target the request target, {@code /bucket/key?query} (origin form)
   * @param copySource the {@code x-amz-copy-source} header, or null
   */
  public static S3Request classify(String method, String target, String copySource) {
    String m = method.toUpperCase(Locale.ROOT);
    int q = target.indexOf('?');
    String path = q < 0 ? target : target.substring(0, q);
    Map<String, String> query = parseQuery(q < 0 ? "" : target.substring(q + 1));
    String rest = path.startsWith("/") ? path.substring(1) : path;
    int slash = rest.indexOf('/');
    String bucket = decode(slash < 0 ? rest : rest.substring(0, slash));
    String key = slash < 0 ? "" : decode(rest.substring(slash + 1));
    return new S3Request(m, bucket, key, query, operationOf(m, bucket, key, query, copySource != null));
  }

  private static S3Operation operationOf(String m, String bucket, String key, Map<String, String> query,
      boolean copy) {
    if (bucket.isEmpty()) {
      return S3Operation.OTHER;
    }
    if (key.isEmpty()) {
      return bucketOperation(m, query);
    }
    boolean upload = query.containsKey("uploadId");
    switch (m) {
      case "PUT":
        if (upload) {
          return S3Operation.MULTIPART_PART;
        }
        if (hasSubresource(query)) {
          return S3Operation.OTHER;
        }
        return copy ? S3Operation.COPY : S3Operation.PUT;
      case "POST":
        if (query.containsKey("uploads")) {
          return S3Operation.MULTIPART_INITIATE;
        }
        return upload ? S3Operation.MULTIPART_COMPLETE : S3Operation.OTHER;
      case "DELETE":
        return upload ? S3Operation.MULTIPART_ABORT : S3Operation.DELETE;
      case "GET":
        if (upload) {
          return S3Operation.MULTIPART_LIST;
        }
        return hasSubresource(query) ? S3Operation.OTHER : S3Operation.GET;
      case "HEAD":
        return S3Operation.HEAD;
      default:
        return S3Operation.OTHER;
    }
  }

  private static S3Operation bucketOperation(String m, Map<String, String> query) {
    if ("POST".equals(m) && query.containsKey("delete")) {
      return S3Operation.BULK_DELETE;
    }
    if ("GET".equals(m)) {
      if (query.containsKey("uploads")) {
        return S3Operation.MULTIPART_LIST;
      }
      if (query.containsKey("versions")) {
        return S3Operation.LIST_VERSIONS;
      }
      if (!hasSubresource(query)) {
        return S3Operation.LIST;
      }
    }
    return S3Operation.BUCKET;
  }

  /** Query parameters that do not name a sub-resource (listing and GetObject parameters). */
  private static boolean hasSubresource(Map<String, String> query) {
    for (String name : query.keySet()) {
      if (!(name.equals("list-type") || name.equals("prefix") || name.equals("delimiter")
          || name.equals("marker") || name.equals("max-keys") || name.equals("encoding-type")
          || name.equals("continuation-token") || name.equals("start-after") || name.equals("fetch-owner")
          || name.startsWith("response-") || name.equals("partNumber") || name.equals("x-id")
          || name.equals("versionId"))) {
        return true;
      }
    }
    return false;
  }

  static Map<String, String> parseQuery(String raw) {
    Map<String, String> m = new LinkedHashMap<>();
    if (raw.isEmpty()) {
      return m;
    }
    for (String part : raw.split("&")) {
      if (part.isEmpty()) {
        continue;
      }
      int eq = part.indexOf('=');
      String name = decode(eq < 0 ? part : part.substring(0, eq));
      String value = eq < 0 ? "" : decode(part.substring(eq + 1));
      m.put(name, value);
    }
    return m;
  }

  private static String decode(String s) {
    // Percent-decoding only: in a path or an AWS-encoded query a '+' is a literal plus.
    return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  public String method() {
    return method;
  }

  /** The bucket, or "" for a request on the service (ListBuckets). */
  public String bucket() {
    return bucket;
  }

  /** The object key (decoded), or "" for a bucket-level request. */
  public String key() {
    return key;
  }

  /** A query parameter (decoded), or null. */
  public String param(String name) {
    return query.get(name);
  }

  public Map<String, String> query() {
    return query;
  }

  public S3Operation operation() {
    return operation;
  }

  /** The {@code bucket/key} this request is about, for matching key patterns and for logging. */
  public String path() {
    return key.isEmpty() ? bucket : bucket + "/" + key;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof S3Request)) {
      return false;
    }
    S3Request r = (S3Request) o;
    return method.equals(r.method) && bucket.equals(r.bucket) && key.equals(r.key) && query.equals(r.query)
        && operation == r.operation;
  }

  @Override
  public int hashCode() {
    return Objects.hash(method, bucket, key, operation);
  }

  @Override
  public String toString() {
    return operation + " " + method + " " + path() + (query.isEmpty() ? "" : " " + query);
  }
}
