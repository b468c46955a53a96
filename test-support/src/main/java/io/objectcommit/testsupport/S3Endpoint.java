package io.objectcommit.testsupport;

import com.amazonaws.services.s3.AmazonS3;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An S3 endpoint the tests can use: where it is, how to sign for it, and how it was obtained.
 * {@link #toString()} never shows the secret key.
 */
public final class S3Endpoint {

  /** How the endpoint was obtained. */
  public enum Kind {
    /** Named by {@value S3TestSettings#ENDPOINT}: real S3, MinIO, or anything else the user runs. */
    EXTERNAL,
    /** LocalStack in a container started by Testcontainers. */
    DOCKER,
    /** LocalStack as a local process started by {@link LocalStackHost}. */
    HOST,
    /** Another S3 server (moto, S3Proxy, S3Mock) as a local process started by {@link StoreHost}. */
    STORE
  }

  private final Kind kind;
  private final URI uri;
  private final String region;
  private final String accessKey;
  private final String secretKey;
  private final boolean pathStyle;

  public S3Endpoint(Kind kind, String uri, String region, String accessKey, String secretKey, boolean pathStyle) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.uri = URI.create(Objects.requireNonNull(uri, "uri"));
    if (this.uri.getScheme() == null || this.uri.getHost() == null) {
      throw new IllegalArgumentException("not an http(s) endpoint URL: " + uri);
    }
    this.region = Objects.requireNonNull(region, "region");
    this.accessKey = Objects.requireNonNull(accessKey, "accessKey");
    this.secretKey = Objects.requireNonNull(secretKey, "secretKey");
    this.pathStyle = pathStyle;
  }

  public Kind kind() {
    return kind;
  }

  /** The endpoint URL, for example {@code http://127.0.0.1:4566}. */
  public URI uri() {
    return uri;
  }

  public String region() {
    return region;
  }

  public String accessKey() {
    return accessKey;
  }

  public String secretKey() {
    return secretKey;
  }

  public boolean pathStyle() {
    return pathStyle;
  }

  /** True when the harness started the server (LocalStack or another store): its buckets vanish with it. */
  public boolean isLocalStack() {
    return kind != Kind.EXTERNAL;
  }

  /**
   * A new AWS SDK v1 client for this endpoint; the caller shuts it down. The SDK v1 code lives in
   * {@link SdkV1Clients}, so that this class loads on class paths without SDK v1 (the Spark 4 lines).
   */
  public AmazonS3 newClient() {
    return SdkV1Clients.newClient(this);
  }

  /**
   * The {@code fs.s3a.*} settings that point S3A (and the store module, which reads the same keys) at this endpoint: only
   * what a user has (endpoint, region, path style, keys); the credential provider list, retries and timeouts stay
   * at Hadoop's defaults, so that tests run with the settings users have. Contains the secret: never log the map.
   */
  public Map<String, String> s3aOptions() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("fs.s3a.endpoint", uri.toString());
    m.put("fs.s3a.endpoint.region", region);
    m.put("fs.s3a.path.style.access", Boolean.toString(pathStyle));
    m.put("fs.s3a.access.key", accessKey);
    m.put("fs.s3a.secret.key", secretKey);
    // settings a run of the store matrix gives every test of one store (docs/stores.md: moto runs the component
    // suites with conditional-writes=assume, since the check refuses it whenever it catches one of its rare races)
    for (String kv : System.getProperty(OPTIONS_PROPERTY, "").split(",")) {
      int eq = kv.indexOf('=');
      if (eq > 0) {
        m.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
      }
    }
    return m;
  }

  /** System property: {@code key=value,...} added to {@link #s3aOptions()} (set by the store-matrix profile). */
  public static final String OPTIONS_PROPERTY = "objectcommit.s3.options";

  @Override
  public String toString() {
    return kind + " " + uri + " (region " + region + ", " + (pathStyle ? "path-style" : "virtual-host") + ")";
  }
}
