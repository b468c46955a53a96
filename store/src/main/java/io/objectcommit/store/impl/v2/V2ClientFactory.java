package io.objectcommit.store.impl.v2;

import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.impl.client.S3ClientSettings;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.util.AwsHostNameUtils;
import software.amazon.awssdk.core.SdkPlugin;
import software.amazon.awssdk.core.client.builder.SdkClientBuilder;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.client.config.SdkAdvancedClientOption;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;

/**
 * Builds an AWS SDK v2 S3 client from {@link S3ClientSettings} as Hadoop 3.4's S3A builds its own
 * ({@code DefaultS3ClientFactory}, {@code AWSClientConfig}), so that a job's {@code fs.s3a.*} settings mean the
 * same to us as to S3A: the Apache HTTP client with S3A's pool and timeouts, endpoint and region by
 * {@link RegionChoice}, path-style access, credentials by {@link V2CredentialsBinding}. The differences are ours
 * on purpose: the SDK's retries are off (the store retries and counts every request itself), and the user agent
 * ends with {@value #USER_AGENT_SUFFIX}. Server-side encryption is set per request by the binding, from
 * {@link S3ClientSettings#encryption()}. Building connects to nothing.
 *
 * <p>Compiled against the oldest SDK v2 we support (2.24.6, Hadoop 3.4.1); the checksum settings of SDK 2.30 and
 * later ({@value StoreConstants#CHECKSUM_CALCULATION}, {@value StoreConstants#MD5_HEADER}) are applied through
 * reflection when the SDK on the classpath has them ({@link #checksumOptions}).
 */
public final class V2ClientFactory {

  private static final Logger LOG = LoggerFactory.getLogger(V2ClientFactory.class);

  /** Appended to the SDK's user agent, so that server logs show our requests (as the v1 binding does). */
  public static final String USER_AGENT_SUFFIX = "objectcommit";

  /** S3A's central endpoint: with it, the SDK finds the bucket's region (cross-region access). */
  static final String CENTRAL_ENDPOINT = "s3.amazonaws.com";
  /** S3A 3.4's region when none is set nor can be read from the endpoint (with cross-region access). */
  static final String FALLBACK_REGION = "us-east-2";
  /** S3A 3.4's pattern of a VPC endpoint host, whose region it reads from the name. */
  private static final Pattern VPC_ENDPOINT = Pattern.compile(
      "^(?:.+\\.)?([a-z0-9-]+)\\.vpce\\.amazonaws\\.(?:com|com\\.cn)$");

  private V2ClientFactory() {
  }

  /**
   * A new client with the credentials of the process environment; the caller closes it (which closes its HTTP
   * client and its credential providers).
   *
   * @throws IllegalArgumentException when the credential providers or the region cannot be used
   */
  public static S3Client create(S3ClientSettings s) {
    V2CredentialProviderChain credentials = V2CredentialsBinding.create(s);
    try {
      return builder(s, credentials).build();
    } catch (SdkClientException | IllegalArgumentException e) {
      credentials.close();
      throw new IllegalArgumentException("Cannot build the S3 client of " + s.describe() + " (check "
          + StoreConstants.ENDPOINT + " and " + StoreConstants.ENDPOINT_REGION + "): " + e.getMessage(), e);
    }
  }

  /** The builder of a client of {@code s} with {@code credentials}: everything set, nothing built. */
  static S3ClientBuilder builder(S3ClientSettings s, AwsCredentialsProvider credentials) {
    S3ClientBuilder b = S3Client.builder()
        .httpClientBuilder(httpClient(s))
        .overrideConfiguration(overrides(s))
        .credentialsProvider(credentials);
    List<String> checksums = checksumOptions(b, s);
    S3Configuration.Builder service = S3Configuration.builder().pathStyleAccessEnabled(s.pathStyleAccess());
    if (!checksums.contains(REQUEST_CALCULATION_WHEN_REQUIRED)
        && !checksums.contains(RESPONSE_VALIDATION_WHEN_REQUIRED)) {
      // S3A 3.4's default (fs.s3a.checksum.validation false): no response checksum validation. Where the SDK's
      // client-level options are set (2.30 and later, which validate only when required then), the SDK refuses
      // this setting beside them ("Checksum behavior has been configured on both S3Configuration and the
      // client/global level").
      service.checksumValidationEnabled(false);
    }
    b.serviceConfiguration(service.build());
    RegionChoice choice = RegionChoice.of(s);
    if (choice.endpointOverride != null) {
      b.endpointOverride(choice.endpointOverride);
    }
    if (choice.region != null) {
      b.region(Region.of(choice.region));
    }
    b.crossRegionAccessEnabled(choice.crossRegionAccess);
    if (s.fips()) {
      b.fipsEnabled(true);
    }
    LOG.debug("S3 client of {}: region {} from {}, cross-region access {}", s.describe(), choice.region,
        choice.origin, choice.crossRegionAccess);
    for (String applied : checksums) {
      LOG.debug("S3 client of {}: {}", s.describe(), applied);
    }
    return b;
  }

  /** The HTTP client: S3A 3.4's pool and timeouts (timeouts below its minimum raised to it, as S3A does). */
  static ApacheHttpClient.Builder httpClient(S3ClientSettings s) {
    ApacheHttpClient.Builder b = ApacheHttpClient.builder()
        .maxConnections(s.maxConnections())
        .connectionTimeout(atLeastMinimum(s.establishTimeoutMs()))
        .socketTimeout(atLeastMinimum(s.socketTimeoutMs()))
        .connectionAcquisitionTimeout(atLeastMinimum(s.acquisitionTimeoutMs()))
        .connectionMaxIdleTime(Duration.ofMillis(s.idleTimeMs()))
        .tcpKeepAlive(s.tcpKeepAlive())
        .expectContinueEnabled(s.expectContinue())
        .useIdleConnectionReaper(true);
    if (s.connectionTtlMs() >= 0) {
      b.connectionTimeToLive(Duration.ofMillis(s.connectionTtlMs()));
    }
    return b;
  }

  /** Request timeouts (attempt and call), user agent, and no SDK retries. */
  static ClientOverrideConfiguration overrides(S3ClientSettings s) {
    ClientOverrideConfiguration.Builder b = ClientOverrideConfiguration.builder()
        .retryPolicy(RetryPolicy.none())
        .putAdvancedOption(SdkAdvancedClientOption.USER_AGENT_SUFFIX, USER_AGENT_SUFFIX);
    if (s.requestTimeoutMs() > 0) {
      Duration timeout = atLeastMinimum(s.requestTimeoutMs());
      b.apiCallAttemptTimeout(timeout).apiCallTimeout(timeout);
    }
    return b.build();
  }

  private static Duration atLeastMinimum(long ms) {
    return Duration.ofMillis(Math.max(ms, StoreConstants.MINIMUM_NETWORK_TIMEOUT_MS));
  }

  /** What {@link #checksumOptions} reports when it set the SDK's request checksum calculation. */
  static final String REQUEST_CALCULATION_WHEN_REQUIRED = "requestChecksumCalculation WHEN_REQUIRED";
  /** What {@link #checksumOptions} reports when it set the SDK's response checksum validation. */
  static final String RESPONSE_VALIDATION_WHEN_REQUIRED = "responseChecksumValidation WHEN_REQUIRED";

  /**
   * Applies the checksum settings where the SDK on the classpath has them (2.30 and later), returning what it
   * did (for logs and tests). {@value StoreConstants#CHECKSUM_CALCULATION} false: request checksums and
   * response validation only when required; {@value StoreConstants#MD5_HEADER} true: the SDK's legacy MD5 plugin
   * (2.31 and later). With an older SDK, which sends {@code Content-MD5} where required and no other checksum,
   * there is nothing to do.
   */
  static List<String> checksumOptions(Object b, S3ClientSettings s) {
    List<String> applied = new ArrayList<>();
    if (!s.checksumCalculation()) {
      if (setEnum(b, "requestChecksumCalculation", "WHEN_REQUIRED")) {
        applied.add(REQUEST_CALCULATION_WHEN_REQUIRED);
      }
      if (setEnum(b, "responseChecksumValidation", "WHEN_REQUIRED")) {
        applied.add(RESPONSE_VALIDATION_WHEN_REQUIRED);
      }
    }
    if (s.md5Header() && b instanceof SdkClientBuilder) {
      try {
        Class<?> plugin = Class.forName("software.amazon.awssdk.services.s3.plugin.legacymd5.LegacyMd5Plugin");
        Object instance = plugin.getMethod("create").invoke(null);
        ((SdkClientBuilder<?, ?>) b).addPlugin((SdkPlugin) instance);
        applied.add("LegacyMd5Plugin");
      } catch (ClassNotFoundException e) {
        LOG.debug("No LegacyMd5Plugin in this SDK (older than 2.31): it sends Content-MD5 where required itself");
      } catch (ReflectiveOperationException | ClassCastException e) {
        LOG.warn("Cannot add the SDK's LegacyMd5Plugin ({}): bulk deletes may be refused by stores that require"
            + " Content-MD5", e.toString());
      }
    }
    return Collections.unmodifiableList(applied);
  }

  /** Calls {@code builder.<method>(<EnumType>.<constant>)} when the SDK has such a method; true when it did. */
  private static boolean setEnum(Object builder, String method, String constant) {
    for (Method m : builder.getClass().getMethods()) {
      if (m.getName().equals(method) && m.getParameterCount() == 1 && m.getParameterTypes()[0].isEnum()) {
        try {
          @SuppressWarnings({"unchecked", "rawtypes"})
          Object value = Enum.valueOf((Class<? extends Enum>) m.getParameterTypes()[0], constant);
          publicDeclaration(builder.getClass(), m).invoke(builder, value);
          return true;
        } catch (ReflectiveOperationException | IllegalArgumentException e) {
          LOG.warn("Cannot set {} {} on the S3 client builder: {}", method, constant, e.toString());
          return false;
        }
      }
    }
    return false;
  }

  /**
   * {@code m} as a public class or interface declares it: the SDK's builders are package-private classes (SDK 2.35's
   * {@code DefaultS3ClientBuilder}) whose public methods implement public interfaces, and reflection refuses to call
   * a method through its package-private declaring class.
   */
  private static Method publicDeclaration(Class<?> type, Method m) {
    if (Modifier.isPublic(m.getDeclaringClass().getModifiers())) {
      return m;
    }
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      if (c != type && Modifier.isPublic(c.getModifiers())) {
        try {
          return c.getMethod(m.getName(), m.getParameterTypes());
        } catch (NoSuchMethodException e) {
          // not declared there: look further
        }
      }
      for (Class<?> i : c.getInterfaces()) {
        Method found = publicDeclarationIn(i, m);
        if (found != null) {
          return found;
        }
      }
    }
    return m;
  }

  private static Method publicDeclarationIn(Class<?> iface, Method m) {
    if (Modifier.isPublic(iface.getModifiers())) {
      try {
        return iface.getMethod(m.getName(), m.getParameterTypes());
      } catch (NoSuchMethodException e) {
        return null;
      }
    }
    for (Class<?> parent : iface.getInterfaces()) {
      Method found = publicDeclarationIn(parent, m);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  /**
   * Where requests go and how they are signed, by Hadoop 3.4's rules ({@code configureEndpointAndRegion}):
   * <ol>
   *   <li>{@code fs.s3a.endpoint.region} set: that region;</li>
   *   <li>else, with an endpoint: the region in its name (a VPC endpoint, {@code s3.<region>.amazonaws.com}), or
   *       {@value #FALLBACK_REGION} for the central endpoint {@value #CENTRAL_ENDPOINT};</li>
   *   <li>else, unset: {@value #FALLBACK_REGION}; set empty: the SDK's own region chain (environment, profile,
   *       instance metadata).</li>
   * </ol>
   * The endpoint is given to the SDK unless it is the central one (the SDK then finds the bucket's endpoint).
   * Cross-region access (the SDK follows the bucket's region) is {@code fs.s3a.cross.region.access.enabled}
   * (Hadoop 3.4.2; default true).
   */
  static final class RegionChoice {
    final URI endpointOverride;
    /** Null: the SDK's region chain. */
    final String region;
    final String origin;
    final boolean crossRegionAccess;

    private RegionChoice(URI endpointOverride, String region, String origin, boolean crossRegionAccess) {
      this.endpointOverride = endpointOverride;
      this.region = region;
      this.origin = origin;
      this.crossRegionAccess = crossRegionAccess;
    }

    static RegionChoice of(S3ClientSettings s) {
      String configured = s.regionSetting();
      String region = configured == null || configured.isEmpty() ? null : configured;
      String origin = StoreConstants.ENDPOINT_REGION;
      URI override = null;
      if (s.endpointUrl() != null) {
        URI endpoint = URI.create(s.endpointUrl());
        boolean central = endpoint.getHost().endsWith(CENTRAL_ENDPOINT);
        if (region == null) {
          region = central ? FALLBACK_REGION : regionOfHost(endpoint.getHost());
          origin = central ? "the central endpoint" : "the endpoint";
        }
        if (!central) {
          override = endpoint;
        }
      }
      if (region == null && configured == null) {
        region = FALLBACK_REGION;
        origin = "the fallback (no region set)";
      } else if (region == null) {
        origin = "the SDK's region chain (" + StoreConstants.ENDPOINT_REGION + " is empty)";
      }
      return new RegionChoice(override, region, origin, s.crossRegionAccess());
    }

    private static String regionOfHost(String host) {
      Matcher m = VPC_ENDPOINT.matcher(host);
      if (m.find()) {
        return m.group(1);
      }
      return AwsHostNameUtils.parseSigningRegion(host, "s3").map(Region::id).orElse(null);
    }

    @Override
    public String toString() {
      return "region " + region + " from " + origin + ", endpoint " + endpointOverride + ", cross-region access "
          + crossRegionAccess;
    }
  }
}
