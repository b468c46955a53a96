package io.objectcommit.fs.impl;

import io.objectcommit.fs.config.ConfigReader;
import static io.objectcommit.fs.FsCoreConstants.ACCESS_KEY;
import static io.objectcommit.fs.FsCoreConstants.CREDENTIALS_PROVIDER;
import static io.objectcommit.fs.FsCoreConstants.CREDENTIALS_PROVIDER_DEFAULT;
import static io.objectcommit.fs.FsCoreConstants.ENCRYPTION_ALGORITHM;
import static io.objectcommit.fs.FsCoreConstants.ENCRYPTION_ALGORITHM_OLD;
import static io.objectcommit.fs.FsCoreConstants.ENCRYPTION_KEY;
import static io.objectcommit.fs.FsCoreConstants.ENCRYPTION_KEY_OLD;
import static io.objectcommit.fs.FsCoreConstants.ENDPOINT;
import static io.objectcommit.fs.FsCoreConstants.ENDPOINT_DEFAULT;
import static io.objectcommit.fs.FsCoreConstants.ENDPOINT_REGION;
import static io.objectcommit.fs.FsCoreConstants.ENDPOINT_REGION_DEFAULT;
import static io.objectcommit.fs.FsCoreConstants.ESTABLISH_TIMEOUT;
import static io.objectcommit.fs.FsCoreConstants.ESTABLISH_TIMEOUT_DEFAULT_MS;
import static io.objectcommit.fs.FsCoreConstants.MAX_CONNECTIONS;
import static io.objectcommit.fs.FsCoreConstants.MAX_CONNECTIONS_DEFAULT;
import static io.objectcommit.fs.FsCoreConstants.PATH_STYLE_ACCESS;
import static io.objectcommit.fs.FsCoreConstants.PATH_STYLE_ACCESS_DEFAULT;
import static io.objectcommit.fs.FsCoreConstants.REQUEST_TIMEOUT;
import static io.objectcommit.fs.FsCoreConstants.REQUEST_TIMEOUT_DEFAULT_MS;
import static io.objectcommit.fs.FsCoreConstants.SECRET_KEY;
import static io.objectcommit.fs.FsCoreConstants.SESSION_TOKEN;
import static io.objectcommit.fs.FsCoreConstants.SOCKET_TIMEOUT;
import static io.objectcommit.fs.FsCoreConstants.SOCKET_TIMEOUT_DEFAULT_MS;
import static io.objectcommit.fs.FsCoreConstants.SSL_ENABLED;
import static io.objectcommit.fs.FsCoreConstants.SSL_ENABLED_DEFAULT;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything needed to build the S3 client of one bucket, read once from a Hadoop {@link Configuration} with the
 * keys S3A uses ({@code fs.s3a.*}, per-bucket overrides {@code fs.s3a.bucket.<bucket>.*} winning), and validated
 * at once: a bad value fails here with an {@link IllegalArgumentException} naming the key actually read.
 *
 * <p>Immutable. Secrets (secret key, session token, SSE-C key) stay inside: {@link #toString()},
 * {@link #describe()}, {@link #cacheKey()} and every exception message leave them out.
 */
public final class S3ClientSettings {

  private static final Logger LOG = LoggerFactory.getLogger(S3ClientSettings.class);

  private static final Pattern REGION = Pattern.compile("[a-z0-9][a-z0-9-]*[a-z0-9]");

  private final String bucket;
  private final String endpointUrl;
  private final String region;
  private final boolean pathStyleAccess;
  private final boolean sslEnabled;
  private final int maxConnections;
  private final int establishTimeoutMs;
  private final int socketTimeoutMs;
  private final int requestTimeoutMs;
  private final EncryptionSettings encryption;
  private final CredentialSettings credentials;

  private S3ClientSettings(ConfigReader r, CredentialSettings credentials, EncryptionSettings encryption) {
    this.bucket = r.bucket();
    this.sslEnabled = r.getBoolean(SSL_ENABLED, SSL_ENABLED_DEFAULT);
    this.endpointUrl = Endpoints.normalise(r.get(ENDPOINT, ENDPOINT_DEFAULT), sslEnabled,
        r.effectiveKey(ENDPOINT), bucket);
    this.region = region(r, endpointUrl);
    this.pathStyleAccess = r.getBoolean(PATH_STYLE_ACCESS, PATH_STYLE_ACCESS_DEFAULT);
    this.maxConnections = r.getInt(MAX_CONNECTIONS, MAX_CONNECTIONS_DEFAULT, 1, 100_000);
    this.establishTimeoutMs = intMs(r, ESTABLISH_TIMEOUT, ESTABLISH_TIMEOUT_DEFAULT_MS, 1);
    this.socketTimeoutMs = intMs(r, SOCKET_TIMEOUT, SOCKET_TIMEOUT_DEFAULT_MS, 1);
    this.requestTimeoutMs = intMs(r, REQUEST_TIMEOUT, REQUEST_TIMEOUT_DEFAULT_MS, 0);
    this.credentials = credentials;
    this.encryption = encryption;
  }

  /**
   * Reads and validates the settings of {@code bucket}.
   *
   * @throws IllegalArgumentException for a bad value, naming the key (and the bucket, for the endpoint)
   * @throws IOException when a Hadoop credential provider cannot be read
   */
  public static S3ClientSettings from(Configuration conf, String bucket) throws IOException {
    Objects.requireNonNull(conf, "conf");
    if (bucket == null || bucket.isEmpty()) {
      throw new IllegalArgumentException("No bucket name given");
    }
    ConfigReader r = new ConfigReader(conf, bucket);
    Secrets secrets = new Secrets(r);
    String algKey = firstSetKey(r, ENCRYPTION_ALGORITHM, ENCRYPTION_ALGORITHM_OLD);
    String algorithm = r.get(algKey, "");
    String keyKey = ENCRYPTION_KEY;
    String key = secrets.get(ENCRYPTION_KEY);
    if (key == null) {
      key = secrets.get(ENCRYPTION_KEY_OLD);
      keyKey = key == null ? ENCRYPTION_KEY : ENCRYPTION_KEY_OLD;
    }
    EncryptionSettings encryption = algorithm.isEmpty()
        ? EncryptionSettings.none()
        : EncryptionSettings.parse(algorithm, r.effectiveKey(algKey), key, secrets.keyName(keyKey));
    if (algorithm.isEmpty() && key != null) {
      LOG.warn("{} is set but {} is not: objects of bucket '{}' get the bucket's default encryption",
          secrets.keyName(keyKey), r.effectiveKey(algKey), bucket);
    }

    String providerKey = r.effectiveKey(CREDENTIALS_PROVIDER);
    List<String> providers = providerList(r.get(CREDENTIALS_PROVIDER, CREDENTIALS_PROVIDER_DEFAULT));
    if (providers.isEmpty()) {
      providers = providerList(CREDENTIALS_PROVIDER_DEFAULT); // as S3A: an empty list means the default one
    }
    boolean custom = providers.stream().anyMatch(p -> !CredentialsBinding.isMapped(p));
    CredentialSettings credentials = new CredentialSettings(secrets.get(ACCESS_KEY), secrets.get(SECRET_KEY),
        secrets.get(SESSION_TOKEN), secrets.keyName(ACCESS_KEY), secrets.keyName(SECRET_KEY),
        secrets.keyName(SESSION_TOKEN), providers, providerKey,
        custom ? CredentialSettings.bucketConfiguration(conf, bucket) : null);
    S3ClientSettings settings = new S3ClientSettings(r, credentials, encryption);
    CredentialsBinding.validate(settings);
    return settings;
  }

  private static List<String> providerList(String value) {
    List<String> providers = new ArrayList<>();
    for (String p : value.split("[,\\s]+")) {
      if (!p.isEmpty()) {
        providers.add(p);
      }
    }
    return providers;
  }

  private static String firstSetKey(ConfigReader r, String... keys) {
    for (String k : keys) {
      if (r.get(k, null) != null) {
        return k;
      }
    }
    return keys[0];
  }

  private static int intMs(ConfigReader r, String key, long def, long min) {
    long ms = r.getDurationMs(key, def, min);
    if (ms > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("Invalid value '" + r.get(key, "") + "' of " + r.effectiveKey(key)
          + ": expected a duration of at most " + Integer.MAX_VALUE + " ms");
    }
    return (int) ms;
  }

  private static String region(ConfigReader r, String endpointUrl) {
    String v = r.get(ENDPOINT_REGION, null);
    if (v == null) {
      String derived = Endpoints.regionOfAwsEndpoint(endpointUrl);
      return derived != null ? derived : ENDPOINT_REGION_DEFAULT;
    }
    String lower = v.toLowerCase(Locale.ROOT);
    if (!REGION.matcher(lower).matches()) {
      throw new IllegalArgumentException("Invalid value '" + v + "' of " + r.effectiveKey(ENDPOINT_REGION)
          + ": expected a region name such as us-east-1");
    }
    return lower;
  }

  /** The bucket these settings are for. */
  public String bucket() {
    return bucket;
  }

  /** The normalised endpoint URL ({@code scheme://host[:port]}), or null for AWS S3 in {@link #region()}. */
  public String endpointUrl() {
    return endpointUrl;
  }

  /** The signing region. */
  public String region() {
    return region;
  }

  /** Path-style requests ({@code http://host/bucket/key}). */
  public boolean pathStyleAccess() {
    return pathStyleAccess;
  }

  /** HTTPS: the endpoint's scheme when it has one, else {@code fs.s3a.connection.ssl.enabled}. */
  public boolean https() {
    return endpointUrl == null ? sslEnabled : endpointUrl.startsWith("https:");
  }

  public int maxConnections() {
    return maxConnections;
  }

  public int establishTimeoutMs() {
    return establishTimeoutMs;
  }

  public int socketTimeoutMs() {
    return socketTimeoutMs;
  }

  /** Timeout of one whole request; 0 for none. */
  public int requestTimeoutMs() {
    return requestTimeoutMs;
  }

  public EncryptionSettings encryption() {
    return encryption;
  }

  /** What {@link CredentialsBinding} needs; holds secrets, so package-private. */
  CredentialSettings credentials() {
    return credentials;
  }

  /** For error messages: {@code bucket 'b' at endpoint http://127.0.0.1:4566 (region us-east-1)}. */
  public String describe() {
    return "bucket '" + bucket + "' at " + (endpointUrl == null ? "AWS S3" : "endpoint " + endpointUrl)
        + " (region " + region + ")";
  }

  /**
   * An opaque string, equal for two settings exactly when they would build the same client: every setting, with
   * the secrets replaced by a keyed hash (a key random per JVM, so the string is useless outside this process).
   * A custom credential provider's own configuration keys are not part of it.
   */
  public String cacheKey() {
    return String.join("|", "bucket=" + bucket, "endpoint=" + endpointUrl, "region=" + region,
        "pathStyle=" + pathStyleAccess, "https=" + https(), "maxConnections=" + maxConnections,
        "timeouts=" + establishTimeoutMs + "," + socketTimeoutMs + "," + requestTimeoutMs,
        "sse=" + encryption.algorithm() + ":" + Secrets.hash(encryption.keyForHashing()),
        "credentials=" + credentials.cacheKey());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof S3ClientSettings && cacheKey().equals(((S3ClientSettings) o).cacheKey());
  }

  @Override
  public int hashCode() {
    return cacheKey().hashCode();
  }

  /** Every setting except the secrets; the access key id masked. */
  @Override
  public String toString() {
    return "S3ClientSettings{" + describe() + ", pathStyle=" + pathStyleAccess + ", https=" + https()
        + ", maxConnections=" + maxConnections + ", establishTimeoutMs=" + establishTimeoutMs
        + ", socketTimeoutMs=" + socketTimeoutMs + ", requestTimeoutMs=" + requestTimeoutMs
        + ", credentials=" + credentials + ", encryption=" + encryption + "}";
  }

  /** Unmodifiable copy. */
  static List<String> copyOf(List<String> list) {
    return Collections.unmodifiableList(new ArrayList<>(list));
  }
}
