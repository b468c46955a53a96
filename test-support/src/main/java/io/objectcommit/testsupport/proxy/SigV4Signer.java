package io.objectcommit.testsupport.proxy;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * AWS Signature Version 4 for the proxy's own bodiless requests (GET, HEAD, LIST), so that it also works in front
 * of stores that check signatures (moto, S3Proxy with authorization). JDK only; signs {@code host},
 * {@code x-amz-content-sha256} (the hash of an empty body) and {@code x-amz-date}.
 */
public final class SigV4Signer {

  static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT);

  private final String accessKey;
  private final String secretKey;
  private final String region;

  public SigV4Signer(String accessKey, String secretKey, String region) {
    this.accessKey = accessKey;
    this.secretKey = secretKey;
    this.region = region;
  }

  /**
   * The headers to add to a bodiless request of {@code method} to {@code uri}, whose path and query are already
   * encoded with {@link #encode(String, boolean)}.
   */
  Map<String, String> headers(String method, URI uri, ZonedDateTime now) {
    return headers(method, uri, now, EMPTY_SHA256);
  }

  /**
   * As {@link #headers(String, URI, ZonedDateTime)} for a request whose body has the SHA-256 (lower-case hex)
   * {@code payloadSha256}.
   */
  public Map<String, String> headers(String method, URI uri, ZonedDateTime now, String payloadSha256) {
    String amzDate = now.withZoneSameInstant(ZoneOffset.UTC).format(AMZ_DATE);
    String day = amzDate.substring(0, 8);
    String host = uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
    String canonicalRequest = method + "\n"
        + (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath()) + "\n"
        + canonicalQuery(uri.getRawQuery()) + "\n"
        + "host:" + host + "\n"
        + "x-amz-content-sha256:" + payloadSha256 + "\n"
        + "x-amz-date:" + amzDate + "\n"
        + "\n"
        + "host;x-amz-content-sha256;x-amz-date\n"
        + payloadSha256;
    String scope = day + "/" + region + "/s3/aws4_request";
    String toSign = "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + hex(sha256(canonicalRequest));
    byte[] key = hmac(("AWS4" + secretKey).getBytes(StandardCharsets.UTF_8), day);
    key = hmac(key, region);
    key = hmac(key, "s3");
    key = hmac(key, "aws4_request");
    String signature = hex(hmac(key, toSign));
    Map<String, String> h = new LinkedHashMap<>();
    h.put("x-amz-content-sha256", payloadSha256);
    h.put("x-amz-date", amzDate);
    h.put("Authorization", "AWS4-HMAC-SHA256 Credential=" + accessKey + "/" + scope
        + ", SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=" + signature);
    return h;
  }

  /** Query parameters sorted by name (then value), each {@code name=value} (an empty value kept as "name="). */
  static String canonicalQuery(String rawQuery) {
    if (rawQuery == null || rawQuery.isEmpty()) {
      return "";
    }
    TreeMap<String, String> sorted = new TreeMap<>();
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      String name = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      sorted.put(name + "=" + value, name + "=" + value);
    }
    return String.join("&", sorted.values());
  }

  /** RFC 3986 percent-encoding as SigV4 wants it (unreserved characters kept; '/' kept when asked). */
  public static String encode(String s, boolean keepSlash) {
    StringBuilder b = new StringBuilder();
    for (byte x : s.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (x & 0xff);
      if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
          || c == '.' || c == '~' || (keepSlash && c == '/')) {
        b.append(c);
      } else {
        b.append('%').append(String.format(Locale.ROOT, "%02X", x & 0xff));
      }
    }
    return b.toString();
  }

  static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String hex(byte[] bytes) {
    StringBuilder b = new StringBuilder(bytes.length * 2);
    for (byte x : bytes) {
      b.append(String.format(Locale.ROOT, "%02x", x & 0xff));
    }
    return b.toString();
  }
}
