package io.objectcommit.testsupport;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The environment variables that choose the S3 endpoint of the integration tests, read once.
 *
 * <table>
 *   <caption>Variables</caption>
 *   <tr><th>Variable</th><th>Meaning</th></tr>
 *   <tr><td>{@value #ENDPOINT}</td><td>use this S3 endpoint (real S3, MinIO...) instead of LocalStack</td></tr>
 *   <tr><td>{@value #REGION}</td><td>its signing region (default {@value #DEFAULT_REGION})</td></tr>
 *   <tr><td>{@value #ACCESS_KEY}, {@value #SECRET_KEY}</td><td>its credentials (default: AWS_ACCESS_KEY_ID,
 *       AWS_SECRET_ACCESS_KEY)</td></tr>
 *   <tr><td>{@value #PATH_STYLE}</td><td>path-style access (default true, false for *.amazonaws.com)</td></tr>
 *   <tr><td>{@value #BUCKET}</td><td>an existing bucket: each test gets a fresh prefix in it instead of a fresh
 *       bucket (for accounts that may not create buckets)</td></tr>
 *   <tr><td>{@value #MODE}</td><td>{@code auto} (default), {@code external}, {@code docker} or {@code host}</td></tr>
 *   <tr><td>{@value #PYTHON}</td><td>the Python interpreter for host-mode LocalStack</td></tr>
 *   <tr><td>{@value #CACHE_DIR}</td><td>where host-mode LocalStack's virtualenv is cached</td></tr>
 *   <tr><td>{@value #STORE}</td><td>which S3 implementation the harness starts: {@code localstack} (default),
 *       {@code moto}, {@code moto-old}, {@code s3proxy}, {@code s3proxy-old}, {@code s3mock} (see
 *       {@link S3Store}); the system property {@value #STORE_PROPERTY} overrides it</td></tr>
 *   <tr><td>{@value #STORE_PYTHON}</td><td>the Python 3 that runs the stores' supervisor (default python3)</td></tr>
 * </table>
 */
public final class S3TestSettings {

  public static final String ENDPOINT = "OBJECTCOMMIT_S3_ENDPOINT";
  public static final String REGION = "OBJECTCOMMIT_S3_REGION";
  public static final String ACCESS_KEY = "OBJECTCOMMIT_S3_ACCESS_KEY";
  public static final String SECRET_KEY = "OBJECTCOMMIT_S3_SECRET_KEY";
  public static final String PATH_STYLE = "OBJECTCOMMIT_S3_PATH_STYLE";
  public static final String BUCKET = "OBJECTCOMMIT_S3_BUCKET";
  public static final String MODE = "OBJECTCOMMIT_S3_MODE";
  public static final String PYTHON = "OBJECTCOMMIT_LOCALSTACK_PYTHON";
  public static final String CACHE_DIR = "OBJECTCOMMIT_CACHE_DIR";
  public static final String STORE = "OBJECTCOMMIT_S3_STORE";
  /** System property that overrides {@value #STORE} (per failsafe execution of the store matrix). */
  public static final String STORE_PROPERTY = "objectcommit.s3.store";
  public static final String STORE_PYTHON = "OBJECTCOMMIT_STORE_PYTHON";

  public static final String DEFAULT_REGION = "us-east-1";

  /** How the endpoint is obtained. */
  public enum Mode {
    AUTO, EXTERNAL, DOCKER, HOST
  }

  private final Map<String, String> env;

  S3TestSettings(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  public static S3TestSettings fromEnvironment() {
    return new S3TestSettings(System.getenv());
  }

  Optional<String> get(String name) {
    String v = env.get(name);
    return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.trim());
  }

  /** The requested mode; {@code AUTO} unless {@value #MODE} says otherwise. */
  public Mode mode() {
    Optional<String> m = get(MODE);
    if (m.isEmpty()) {
      return get(ENDPOINT).isPresent() ? Mode.EXTERNAL : Mode.AUTO;
    }
    try {
      return Mode.valueOf(m.get().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(MODE + "=" + m.get() + " is not one of auto, external, docker, host");
    }
  }

  /** The store the harness starts ({@link S3Store#EXTERNAL} when an external endpoint is used). */
  public S3Store store() {
    if (mode() == Mode.EXTERNAL) {
      return S3Store.EXTERNAL;
    }
    return Optional.ofNullable(System.getProperty(STORE_PROPERTY)).filter(s -> !s.isBlank()).or(() -> get(STORE))
        .map(S3Store::of).orElse(S3Store.LOCALSTACK);
  }

  public Optional<String> sharedBucket() {
    return get(BUCKET);
  }

  /** Builds the external endpoint described by the variables; fails naming the missing variable. */
  S3Endpoint externalEndpoint() {
    String uri = get(ENDPOINT).orElseThrow(() -> new IllegalStateException(
        MODE + "=external needs " + ENDPOINT + " (for example http://127.0.0.1:9000)"));
    String access = get(ACCESS_KEY).or(() -> get("AWS_ACCESS_KEY_ID")).orElseThrow(() ->
        new IllegalStateException(ENDPOINT + " is set but neither " + ACCESS_KEY + " nor AWS_ACCESS_KEY_ID is"));
    String secret = get(SECRET_KEY).or(() -> get("AWS_SECRET_ACCESS_KEY")).orElseThrow(() ->
        new IllegalStateException(ENDPOINT + " is set but neither " + SECRET_KEY + " nor AWS_SECRET_ACCESS_KEY is"));
    boolean pathStyle = get(PATH_STYLE).map(Boolean::parseBoolean)
        .orElse(!uri.contains(".amazonaws.com"));
    return new S3Endpoint(S3Endpoint.Kind.EXTERNAL, uri, get(REGION).orElse(DEFAULT_REGION), access, secret,
        pathStyle);
  }
}
