package io.objectcommit.store.impl.v2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.impl.client.S3ClientSettings;
import io.objectcommit.store.impl.v2.sdkstandin.ChecksumOptionsBuilder;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.client.config.SdkAdvancedClientOption;
import software.amazon.awssdk.http.SdkHttpConfigurationOption;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ServiceClientConfiguration;
import software.amazon.awssdk.utils.AttributeMap;

/** Settings to SDK v2 client, without network: the builder inputs and the built client's configuration. */
class V2ClientFactoryTest {

  /** No core-default.xml: only what the test sets (and our defaults, Hadoop 3.4's for the 3.4 keys). */
  static Configuration conf(String... kv) {
    Configuration c = new Configuration(false);
    for (int i = 0; i < kv.length; i += 2) {
      c.set(kv[i], kv[i + 1]);
    }
    return c;
  }

  private static S3ClientSettings settings(String... kv) throws IOException {
    return S3ClientSettings.from(conf(kv), "test-bucket");
  }

  private static V2ClientFactory.RegionChoice choice(String... kv) throws IOException {
    return V2ClientFactory.RegionChoice.of(settings(kv));
  }

  @Test
  void thirdPartyEndpointWithoutRegionIsSignedForTheFallbackRegionAsS3a34Does() throws IOException {
    V2ClientFactory.RegionChoice c = choice("fs.s3a.endpoint", "http://127.0.0.1:4566");
    assertEquals(URI.create("http://127.0.0.1:4566"), c.endpointOverride);
    assertEquals("us-east-2", c.region);
    assertTrue(c.crossRegionAccess);
  }

  @Test
  void theConfiguredRegionWins() throws IOException {
    V2ClientFactory.RegionChoice c = choice("fs.s3a.endpoint", "127.0.0.1:4566", "fs.s3a.connection.ssl.enabled",
        "false", "fs.s3a.endpoint.region", "EU-West-3");
    assertEquals(URI.create("http://127.0.0.1:4566"), c.endpointOverride);
    assertEquals("eu-west-3", c.region);
    assertEquals("fs.s3a.endpoint.region", c.origin);
    assertEquals("eu-west-3", choice("fs.s3a.bucket.test-bucket.endpoint.region", "eu-west-3",
        "fs.s3a.endpoint.region", "us-west-1").region);
  }

  @Test
  void regionFromAwsEndpointNames() throws IOException {
    V2ClientFactory.RegionChoice regional = choice("fs.s3a.endpoint", "s3.eu-west-1.amazonaws.com");
    assertEquals("eu-west-1", regional.region);
    assertEquals(URI.create("https://s3.eu-west-1.amazonaws.com"), regional.endpointOverride);
    assertEquals("eu-central-1", choice("fs.s3a.endpoint",
        "https://bucket.vpce-0123-abcd.s3.eu-central-1.vpce.amazonaws.com").region);
  }

  @Test
  void centralEndpointIsNotOverriddenAndUsesCrossRegionAccess() throws IOException {
    V2ClientFactory.RegionChoice c = choice("fs.s3a.endpoint", "s3.amazonaws.com");
    assertNull(c.endpointOverride);
    assertEquals("us-east-2", c.region);
    assertTrue(c.crossRegionAccess);
  }

  @Test
  void noEndpointNoRegionFallsBackAndEmptyRegionMeansTheSdkChain() throws IOException {
    V2ClientFactory.RegionChoice none = choice();
    assertNull(none.endpointOverride);
    assertEquals("us-east-2", none.region);
    V2ClientFactory.RegionChoice empty = choice("fs.s3a.endpoint.region", "");
    assertNull(empty.region);
    assertTrue(empty.origin.contains("region chain"), empty.origin);
    assertFalse(choice("fs.s3a.cross.region.access.enabled", "false").crossRegionAccess);
  }

  @Test
  void theBuiltClientHasRegionEndpointNoSdkRetriesAndOurUserAgent() throws IOException {
    S3ClientSettings s = settings("fs.s3a.endpoint", "http://127.0.0.1:4566", "fs.s3a.endpoint.region",
        "us-east-1", "fs.s3a.path.style.access", "true", "fs.s3a.connection.request.timeout", "90s");
    try (S3Client client = V2ClientFactory.builder(s, AnonymousCredentialsProvider.create()).build()) {
      S3ServiceClientConfiguration cfg = client.serviceClientConfiguration();
      assertEquals(Region.US_EAST_1, cfg.region());
      assertEquals(Optional.of(URI.create("http://127.0.0.1:4566")), cfg.endpointOverride());
      ClientOverrideConfiguration o = cfg.overrideConfiguration();
      assertEquals(0, o.retryPolicy().get().numRetries());
      assertEquals(Optional.of(Duration.ofSeconds(90)), o.apiCallTimeout());
      assertEquals(Optional.of(Duration.ofSeconds(90)), o.apiCallAttemptTimeout());
      assertEquals(Optional.of("objectcommit"), o.advancedOption(SdkAdvancedClientOption.USER_AGENT_SUFFIX));
      assertTrue(cfg.crossRegionAccessEnabled());
    }
  }

  @Test
  void fipsOnlyWithTheCentralOrNoEndpoint() throws IOException {
    assertTrue(settings("fs.s3a.endpoint.fips", "true").fips());
    assertTrue(settings("fs.s3a.endpoint.fips", "true", "fs.s3a.endpoint", "s3.amazonaws.com").fips());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> settings("fs.s3a.bucket.test-bucket.endpoint.fips", "true", "fs.s3a.endpoint", "http://127.0.0.1:9"));
    assertTrue(e.getMessage().startsWith("fs.s3a.bucket.test-bucket.endpoint.fips is true but fs.s3a.endpoint is"
        + " http://127.0.0.1:9 for bucket 'test-bucket'"), e.getMessage());
    try (S3Client client = V2ClientFactory.builder(settings("fs.s3a.endpoint.fips", "true",
        "fs.s3a.endpoint.region", "us-west-2"), AnonymousCredentialsProvider.create()).build()) {
      assertEquals(Region.US_WEST_2, client.serviceClientConfiguration().region());
    }
  }

  @Test
  void requestTimeoutZeroMeansNone() throws IOException {
    ClientOverrideConfiguration o = V2ClientFactory.overrides(settings("fs.s3a.connection.request.timeout", "0"));
    assertEquals(Optional.empty(), o.apiCallTimeout());
    assertEquals(Optional.empty(), o.apiCallAttemptTimeout());
    // Below Hadoop 3.4's minimum of 15 s: raised to it, as S3A does.
    assertEquals(Optional.of(Duration.ofSeconds(15)),
        V2ClientFactory.overrides(settings("fs.s3a.connection.request.timeout", "2s")).apiCallTimeout());
  }

  @Test
  void httpClientPoolAndTimeoutsAreHadoop34s() throws Exception {
    AttributeMap.Builder defaults = options(V2ClientFactory.httpClient(settings()));
    assertEquals(96, defaults.get(SdkHttpConfigurationOption.MAX_CONNECTIONS));
    assertEquals(Duration.ofSeconds(200), defaults.get(SdkHttpConfigurationOption.READ_TIMEOUT));
    assertEquals(Duration.ofSeconds(60), defaults.get(SdkHttpConfigurationOption.CONNECTION_ACQUIRE_TIMEOUT));
    assertEquals(Duration.ofMinutes(5), defaults.get(SdkHttpConfigurationOption.CONNECTION_TIME_TO_LIVE));
    assertEquals(Duration.ofSeconds(60), defaults.get(SdkHttpConfigurationOption.CONNECTION_MAX_IDLE_TIMEOUT));
    assertEquals(false, defaults.get(SdkHttpConfigurationOption.TCP_KEEPALIVE));

    AttributeMap.Builder set = options(V2ClientFactory.httpClient(settings("fs.s3a.connection.maximum", "500",
        "fs.s3a.connection.establish.timeout", "30s", "fs.s3a.connection.timeout", "2m",
        "fs.s3a.connection.acquisition.timeout", "1m", "fs.s3a.connection.ttl", "-1",
        "fs.s3a.connection.idle.time", "0", "fs.s3a.connection.keepalive", "true")));
    assertEquals(500, set.get(SdkHttpConfigurationOption.MAX_CONNECTIONS));
    assertEquals(Duration.ofSeconds(30), set.get(SdkHttpConfigurationOption.CONNECTION_TIMEOUT));
    assertEquals(Duration.ofMinutes(2), set.get(SdkHttpConfigurationOption.READ_TIMEOUT));
    assertNull(set.get(SdkHttpConfigurationOption.CONNECTION_TIME_TO_LIVE));
    assertEquals(Duration.ZERO, set.get(SdkHttpConfigurationOption.CONNECTION_MAX_IDLE_TIMEOUT));
    assertEquals(true, set.get(SdkHttpConfigurationOption.TCP_KEEPALIVE));

    // Hadoop 3.4 raises network timeouts below 15 s to 15 s.
    AttributeMap.Builder tiny = options(V2ClientFactory.httpClient(settings(
        "fs.s3a.connection.establish.timeout", "100", "fs.s3a.connection.timeout", "1s")));
    assertEquals(Duration.ofSeconds(15), tiny.get(SdkHttpConfigurationOption.CONNECTION_TIMEOUT));
    assertEquals(Duration.ofSeconds(15), tiny.get(SdkHttpConfigurationOption.READ_TIMEOUT));
  }

  @Test
  void badValuesFailNamingTheKey() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> settings("fs.s3a.bucket.test-bucket.connection.acquisition.timeout", "soon"));
    assertTrue(e.getMessage().contains("fs.s3a.bucket.test-bucket.connection.acquisition.timeout"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> settings("fs.s3a.connection.ttl", "-x"));
    assertTrue(e.getMessage().contains("fs.s3a.connection.ttl"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> settings("fs.s3a.md5.header.enabled", "yes"));
    assertTrue(e.getMessage().contains("fs.s3a.md5.header.enabled"), e.getMessage());
  }

  /** Stands for the builder of an SDK (2.30 and later) that has the checksum options. */
  public static final class NewSdkBuilder {
    public enum Calculation { WHEN_SUPPORTED, WHEN_REQUIRED }

    final List<String> calls = new ArrayList<>();

    public NewSdkBuilder requestChecksumCalculation(Calculation c) {
      calls.add("request " + c);
      return this;
    }

    public NewSdkBuilder responseChecksumValidation(Calculation c) {
      calls.add("response " + c);
      return this;
    }
  }

  @Test
  void checksumOptionsAreSetThroughThePublicInterfaceOfAHiddenBuilderClass() throws IOException {
    ChecksumOptionsBuilder b =
        ChecksumOptionsBuilder.create();
    assertEquals(List.of("requestChecksumCalculation WHEN_REQUIRED", "responseChecksumValidation WHEN_REQUIRED"),
        V2ClientFactory.checksumOptions(b, settings()));
    assertEquals(List.of("request WHEN_REQUIRED", "response WHEN_REQUIRED"), b.calls());
  }

  @Test
  void checksumsOnlyWhenRequiredWhereTheSdkHasTheOption() throws IOException {
    NewSdkBuilder newer = new NewSdkBuilder();
    assertEquals(List.of("requestChecksumCalculation WHEN_REQUIRED", "responseChecksumValidation WHEN_REQUIRED"),
        V2ClientFactory.checksumOptions(newer, settings()));
    assertEquals(List.of("request WHEN_REQUIRED", "response WHEN_REQUIRED"), newer.calls);
    NewSdkBuilder enabled = new NewSdkBuilder();
    assertEquals(List.of(), V2ClientFactory.checksumOptions(enabled,
        settings("fs.s3a.checksum.calculation.enabled", "true")));
    assertEquals(List.of(), enabled.calls);
    assertEquals(List.of(), V2ClientFactory.checksumOptions(new NewSdkBuilder(),
        settings("fs.s3a.checksum.generation", "true")));
    // SDK 2.24 (what we compile against) has neither the options nor the MD5 plugin: nothing to do.
    assertEquals(List.of(), V2ClientFactory.checksumOptions(S3Client.builder(), settings()));
  }

  private static AttributeMap.Builder options(ApacheHttpClient.Builder b) throws ReflectiveOperationException {
    Field f = b.getClass().getDeclaredField("standardOptions");
    f.setAccessible(true);
    return (AttributeMap.Builder) f.get(b);
  }
}
