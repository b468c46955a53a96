package io.objectcommit.store.impl.client;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsing of {@code fs.s3a.endpoint}: host or URL to a normalised {@code scheme://host[:port]}. */
final class Endpoints {

  /** An AWS region name inside an AWS S3 host name: {@code eu-west-1}, {@code us-gov-west-1}. */
  private static final Pattern AWS_REGION = Pattern.compile("(?:^|[.-])([a-z]{2}(?:-gov)?-[a-z]+-\\d+)(?:$|\\.)");

  private Endpoints() {
  }

  /**
   * The endpoint as {@code scheme://host[:port]}, or null when {@code raw} is empty (AWS S3 of the region).
   * Without a scheme, {@code https} when {@code ssl}, else {@code http}.
   *
   * @throws IllegalArgumentException naming {@code key} and {@code bucket} when it is not an http(s) URL of a
   *     host, with no path, query, fragment or user info
   */
  static String normalise(String raw, boolean ssl, String key, String bucket) {
    if (raw == null || raw.trim().isEmpty()) {
      return null;
    }
    String s = raw.trim();
    String url = s.contains("://") ? s : (ssl ? "https://" : "http://") + s;
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw bad(s, key, bucket, "not a URL (" + e.getReason() + ")");
    }
    if (uri.getRawUserInfo() != null) {
      // Never echo it: user info is where people put credentials.
      throw new IllegalArgumentException("Invalid S3 endpoint in " + key + " for bucket '" + bucket
          + "': it must not contain user info (user:password@); give credentials with the fs.s3a credential keys");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw bad(s, key, bucket, "the scheme must be http or https");
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      throw bad(s, key, bucket, "no valid host name");
    }
    int port = uri.getPort();
    if (port == 0 || port > 65_535) {
      throw bad(s, key, bucket, "port " + port + " is out of range");
    }
    String path = uri.getRawPath();
    if ((path != null && !path.isEmpty() && !path.equals("/")) || uri.getRawQuery() != null
        || uri.getRawFragment() != null) {
      throw bad(s, key, bucket, "it must have no path, query or fragment (the bucket is not part of it)");
    }
    return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + (port < 0 ? "" : ":" + port);
  }

  /** The region named in an AWS S3 endpoint's host ({@code s3.eu-west-1.amazonaws.com}), else null. */
  static String regionOfAwsEndpoint(String endpointUrl) {
    if (endpointUrl == null) {
      return null;
    }
    String host = URI.create(endpointUrl).getHost();
    if (!host.endsWith(".amazonaws.com") && !host.endsWith(".amazonaws.com.cn")) {
      return null;
    }
    Matcher m = AWS_REGION.matcher(host);
    return m.find() ? m.group(1) : null;
  }

  private static IllegalArgumentException bad(String value, String key, String bucket, String reason) {
    return new IllegalArgumentException("Invalid S3 endpoint '" + value + "' in " + key + " for bucket '" + bucket
        + "': " + reason);
  }
}
