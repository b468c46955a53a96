package io.objectcommit.store.impl.client;

import static io.objectcommit.store.StoreConstants.ACCESS_KEY;
import static io.objectcommit.store.StoreConstants.ACQUISITION_TIMEOUT;
import static io.objectcommit.store.StoreConstants.ACQUISITION_TIMEOUT_DEFAULT_MS;
import static io.objectcommit.store.StoreConstants.CHECKSUM_CALCULATION;
import static io.objectcommit.store.StoreConstants.CHECKSUM_CALCULATION_DEFAULT;
import static io.objectcommit.store.StoreConstants.CHECKSUM_CALCULATION_OTHER;
import static io.objectcommit.store.StoreConstants.CONNECTION_IDLE_TIME;
import static io.objectcommit.store.StoreConstants.CONNECTION_IDLE_TIME_DEFAULT_MS;
import static io.objectcommit.store.StoreConstants.CONNECTION_KEEPALIVE;
import static io.objectcommit.store.StoreConstants.CONNECTION_KEEPALIVE_DEFAULT;
import static io.objectcommit.store.StoreConstants.CONNECTION_TTL;
import static io.objectcommit.store.StoreConstants.CONNECTION_TTL_DEFAULT_MS;
import static io.objectcommit.store.StoreConstants.CREDENTIALS_PROVIDER;
import static io.objectcommit.store.StoreConstants.CREDENTIALS_PROVIDER_MAPPING;
import static io.objectcommit.store.StoreConstants.CROSS_REGION_ACCESS;
import static io.objectcommit.store.StoreConstants.CROSS_REGION_ACCESS_DEFAULT;
import static io.objectcommit.store.StoreConstants.ENCRYPTION_ALGORITHM;
import static io.objectcommit.store.StoreConstants.ENCRYPTION_ALGORITHM_OLD;
import static io.objectcommit.store.StoreConstants.ENCRYPTION_KEY;
import static io.objectcommit.store.StoreConstants.ENCRYPTION_KEY_OLD;
import static io.objectcommit.store.StoreConstants.ENDPOINT;
import static io.objectcommit.store.StoreConstants.ENDPOINT_DEFAULT;
import static io.objectcommit.store.StoreConstants.ENDPOINT_FIPS;
import static io.objectcommit.store.StoreConstants.ENDPOINT_FIPS_DEFAULT;
import static io.objectcommit.store.StoreConstants.ENDPOINT_REGION;
import static io.objectcommit.store.StoreConstants.ENDPOINT_REGION_DEFAULT;
import static io.objectcommit.store.StoreConstants.ESTABLISH_TIMEOUT;
import static io.objectcommit.store.StoreConstants.ESTABLISH_TIMEOUT_DEFAULT_MS;
import static io.objectcommit.store.StoreConstants.EXPECT_CONTINUE;
import static io.objectcommit.store.StoreConstants.EXPECT_CONTINUE_DEFAULT;
import static io.objectcommit.store.StoreConstants.MAX_CONNECTIONS;
import static io.objectcommit.store.StoreConstants.MAX_CONNECTIONS_DEFAULT;
import static io.objectcommit.store.StoreConstants.MD5_HEADER;
import static io.objectcommit.store.StoreConstants.MD5_HEADER_DEFAULT;
import static io.objectcommit.store.StoreConstants.MD5_HEADER_OTHER;
import static io.objectcommit.store.StoreConstants.PART_UPLOAD_TIMEOUT;
import static io.objectcommit.store.StoreConstants.PART_UPLOAD_TIMEOUT_DEFAULT_MS;
import static io.objectcommit.store.StoreConstants.PATH_STYLE_ACCESS;
import static io.objectcommit.store.StoreConstants.PATH_STYLE_ACCESS_DEFAULT;
import static io.objectcommit.store.StoreConstants.REQUEST_TIMEOUT;
import static io.objectcommit.store.StoreConstants.REQUEST_TIMEOUT_DEFAULT_MS;
import static io.objectcommit.store.StoreConstants.SECRET_KEY;
import static io.objectcommit.store.StoreConstants.SESSION_TOKEN;
import static io.objectcommit.store.StoreConstants.SOCKET_TIMEOUT;
import static io.objectcommit.store.StoreConstants.SOCKET_TIMEOUT_DEFAULT_MS;
import static io.objectcommit.store.StoreConstants.SSL_ENABLED;
import static io.objectcommit.store.StoreConstants.SSL_ENABLED_DEFAULT;

import io.objectcommit.store.config.ConfigReader;
import io.objectcommit.store.impl.auth.CredentialProviders;
import io.objectcommit.store.impl.auth.CredentialSettings;
import io.objectcommit.store.impl.auth.Secrets;
import io.objectcommit.store.impl.v1.V1CredentialsBinding;
import java.io.IOException;
import java.net.URI;
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
  private final String regionSetting;
  private final boolean crossRegionAccess;
  private final boolean fips;
  private final int acquisitionTimeoutMs;
  private final long connectionTtlMs;
  private final long idleTimeMs;
  private final boolean tcpKeepAlive;
  private final boolean expectContinue;
  private final long partUploadTimeoutMs;
  private final boolean checksumCalculation;
  private final boolean md5Header;
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
    this.regionSetting = regionSetting(r);
    this.crossRegionAccess = r.getBoolean(CROSS_REGION_ACCESS, CROSS_REGION_ACCESS_DEFAULT);
    this.fips = r.getBoolean(ENDPOINT_FIPS, ENDPOINT_FIPS_DEFAULT);
    if (fips && endpointUrl != null && !URI.create(endpointUrl).getHost().endsWith("s3.amazonaws.com")) {
      throw new IllegalArgumentException(r.effectiveKey(ENDPOINT_FIPS) + " is true but " + r.effectiveKey(ENDPOINT)
          + " is " + endpointUrl + " for bucket '" + bucket + "': with FIPS, leave the endpoint empty or set it to"
          + " the central endpoint s3.amazonaws.com (as S3A requires)");
    }
    this.acquisitionTimeoutMs = intMs(r, ACQUISITION_TIMEOUT, ACQUISITION_TIMEOUT_DEFAULT_MS, 0);
    this.connectionTtlMs = signedMs(r, CONNECTION_TTL, CONNECTION_TTL_DEFAULT_MS);
    this.idleTimeMs = r.getDurationMs(CONNECTION_IDLE_TIME, CONNECTION_IDLE_TIME_DEFAULT_MS, 0);
    this.tcpKeepAlive = r.getBoolean(CONNECTION_KEEPALIVE, CONNECTION_KEEPALIVE_DEFAULT);
    this.expectContinue = r.getBoolean(EXPECT_CONTINUE, EXPECT_CONTINUE_DEFAULT);
    this.partUploadTimeoutMs = r.getDurationMs(PART_UPLOAD_TIMEOUT, PART_UPLOAD_TIMEOUT_DEFAULT_MS, 0);
    this.checksumCalculation = r.getBoolean(firstSetKey(r, CHECKSUM_CALCULATION, CHECKSUM_CALCULATION_OTHER),
        CHECKSUM_CALCULATION_DEFAULT);
    this.md5Header = r.getBoolean(firstSetKey(r, MD5_HEADER, MD5_HEADER_OTHER), MD5_HEADER_DEFAULT);
    this.credentials = credentials;
    this.encryption = encryption;
  }

  /**
   * Reads and validates the settings of {@code bucket} alone (the client's own tests and tools; a store reads them
   * as part of its whole configuration, {@link #from(ConfigReader)}).
   *
   * @throws IllegalArgumentException for a bad value, naming the key (and the bucket, for the endpoint)
   * @throws IOException when a Hadoop credential provider cannot be read
   */
  public static S3ClientSettings from(Configuration conf, String bucket) throws IOException {
    Objects.requireNonNull(conf, "conf");
    if (bucket == null || bucket.isEmpty()) {
      throw new IllegalArgumentException("No bucket name given");
    }
    return from(new ConfigReader(conf, bucket));
  }

  /**
   * Reads and validates the settings of the reader's bucket: the part of a store's configuration that the
   * store's whole configuration ({@code StoreConfig}) reads through its one reader.
   *
   * @throws IllegalArgumentException for a bad value, naming the key (and the bucket, for the endpoint)
   * @throws IOException when a Hadoop credential provider cannot be read
   */
  public static S3ClientSettings from(ConfigReader r) throws IOException {
    String bucket = r.bucket();
    if (bucket.isEmpty()) {
      throw new IllegalArgumentException("No bucket name given");
    }
    Configuration conf = r.configuration();
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
    // Unset or empty: the default list of the binding's Hadoop line (CredentialProviders.Line), as in S3A.
    List<String> providers = CredentialProviders.parse(r.get(CREDENTIALS_PROVIDER, ""),
        r.get(CREDENTIALS_PROVIDER_MAPPING, ""), r.effectiveKey(CREDENTIALS_PROVIDER_MAPPING));
    boolean custom = providers.stream().anyMatch(p -> CredentialProviders.builtIn(p) == null);
    CredentialSettings credentials = new CredentialSettings(secrets.get(ACCESS_KEY), secrets.get(SECRET_KEY),
        secrets.get(SESSION_TOKEN), secrets.keyName(ACCESS_KEY), secrets.keyName(SECRET_KEY),
        secrets.keyName(SESSION_TOKEN), providers, providerKey,
        custom ? CredentialSettings.bucketConfiguration(conf, bucket) : null);
    CredentialProviders.validate(credentials);
    return new S3ClientSettings(r, credentials, encryption);
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

  /** A duration, or a negative one for "unlimited" (returned as -1). */
  private static long signedMs(ConfigReader r, String key, long def) {
    String v = r.get(key, null);
    if (v != null && v.startsWith("-")) {
      try {
        ConfigReader.parseDurationMs(v.substring(1));
      } catch (IllegalArgumentException e) {
        throw r.bad(key, v, "a duration such as 5m, or -1 for unlimited");
      }
      return -1;
    }
    return r.getDurationMs(key, def, 0);
  }

  /** {@code fs.s3a.endpoint.region} as written: null when unset, empty when set empty (the SDK's region chain). */
  private static String regionSetting(ConfigReader r) {
    String v = r.configuration().getTrimmed(r.effectiveKey(ENDPOINT_REGION));
    if (v == null || v.isEmpty()) {
      return v;
    }
    String lower = v.toLowerCase(Locale.ROOT);
    if (!REGION.matcher(lower).matches()) {
      throw new IllegalArgumentException("Invalid value '" + v + "' of " + r.effectiveKey(ENDPOINT_REGION)
          + ": expected a region name such as us-east-1");
    }
    return lower;
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

  /**
   * {@code fs.s3a.endpoint.region} as written, for the SDK v2 binding's Hadoop 3.4 rules: null when unset,
   * empty when set empty (the SDK's region chain), else the lower-case region.
   */
  public String regionSetting() {
    return regionSetting;
  }

  /** {@value io.objectcommit.store.StoreConstants#CROSS_REGION_ACCESS} (SDK v2). */
  public boolean crossRegionAccess() {
    return crossRegionAccess;
  }

  /** {@value io.objectcommit.store.StoreConstants#ENDPOINT_FIPS} (SDK v2). */
  public boolean fips() {
    return fips;
  }

  /** Wait for a pooled connection (SDK v2); 0 for the SDK's default. */
  public int acquisitionTimeoutMs() {
    return acquisitionTimeoutMs;
  }

  /** Longest life of a pooled connection (SDK v2); negative for unlimited. */
  public long connectionTtlMs() {
    return connectionTtlMs;
  }

  /** Idle time after which a pooled connection is closed (SDK v2); 0 for never. */
  public long idleTimeMs() {
    return idleTimeMs;
  }

  public boolean tcpKeepAlive() {
    return tcpKeepAlive;
  }

  /** {@code Expect: 100-continue} on uploads (both SDKs). */
  public boolean expectContinue() {
    return expectContinue;
  }

  /** Timeout of one PUT or part upload (SDK v2; for the binding to set per upload request); 0 for none. */
  public long partUploadTimeoutMs() {
    return partUploadTimeoutMs;
  }

  /** Checksums on every upload (SDK v2 from 2.30), else only where a request requires one. */
  public boolean checksumCalculation() {
    return checksumCalculation;
  }

  /** {@code Content-MD5} where a request requires a checksum (SDK v2 from 2.31, legacy MD5 plugin). */
  public boolean md5Header() {
    return md5Header;
  }

  /** What {@link V1CredentialsBinding} needs; holds secrets, so package-private. */
  public CredentialSettings credentials() {
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
        "v2=" + regionSetting + "," + crossRegionAccess + "," + fips + "," + acquisitionTimeoutMs + ","
            + connectionTtlMs + "," + idleTimeMs + "," + tcpKeepAlive + "," + expectContinue + ","
            + partUploadTimeoutMs + "," + checksumCalculation + "," + md5Header,
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
        + ", v2{regionSetting=" + regionSetting + ", crossRegionAccess=" + crossRegionAccess
        + (fips ? ", fips=true" : "")
        + ", acquisitionTimeoutMs=" + acquisitionTimeoutMs + ", connectionTtlMs=" + connectionTtlMs
        + ", idleTimeMs=" + idleTimeMs + ", tcpKeepAlive=" + tcpKeepAlive + ", expectContinue=" + expectContinue
        + ", partUploadTimeoutMs=" + partUploadTimeoutMs + ", checksumCalculation=" + checksumCalculation
        + ", md5Header=" + md5Header + "}"
        + ", credentials=" + credentials + ", encryption=" + encryption + "}";
  }

  /** Unmodifiable copy. */
  public static List<String> copyOf(List<String> list) {
    return Collections.unmodifiableList(new ArrayList<>(list));
  }
}
