package io.objectcommit.store.impl.v1;

import static io.objectcommit.store.impl.client.S3ClientSettingsTest.conf;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.SdkClientException;
import com.amazonaws.auth.AWSCredentials;
import com.amazonaws.auth.AWSCredentialsProvider;
import com.amazonaws.auth.AWSSessionCredentials;
import com.amazonaws.auth.AnonymousAWSCredentials;
import com.amazonaws.auth.BasicAWSCredentials;
import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.impl.auth.CredentialProviderException;
import io.objectcommit.store.impl.auth.CredentialProviders;
import io.objectcommit.store.impl.client.S3ClientSettings;
import java.io.IOException;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class V1CredentialsBindingTest {

  private static final String PROVIDER = "fs.s3a.aws.credentials.provider";

  /** A custom provider with S3A's preferred constructor: returns what it was given, to check it. */
  public static class UriConfProvider implements AWSCredentialsProvider {
    final URI uri;
    final Configuration conf;

    public UriConfProvider(URI uri, Configuration conf) {
      this.uri = uri;
      this.conf = conf;
    }

    public UriConfProvider() {
      throw new AssertionError("the (URI, Configuration) constructor comes first");
    }

    @Override
    public AWSCredentials getCredentials() {
      return new BasicAWSCredentials("uri-" + uri.getHost(), conf.get("custom.secret", "none"));
    }

    @Override
    public void refresh() {
    }
  }

  /** Only a (Configuration) constructor. */
  public static class ConfProvider extends UriConfProvider {
    public ConfProvider(Configuration conf) {
      super(URI.create("s3a://conf-only"), conf);
    }
  }

  /** Only a static getInstance(). */
  public static final class SingletonProvider extends UriConfProvider {
    static final SingletonProvider INSTANCE = new SingletonProvider();

    private SingletonProvider() {
      super(URI.create("s3a://singleton"), new Configuration(false));
    }

    public static SingletonProvider getInstance() {
      return INSTANCE;
    }
  }

  /** Only a no-argument constructor; never has credentials. */
  public static class FailingProvider implements AWSCredentialsProvider {
    @Override
    public AWSCredentials getCredentials() {
      throw new SdkClientException("nothing here");
    }

    @Override
    public void refresh() {
    }
  }

  /** A constructor that throws. */
  public static class ExplodingProvider extends FailingProvider {
    public ExplodingProvider() {
      throw new IllegalStateException("boom");
    }
  }

  /** Not a provider at all. */
  public static class NotAProvider {
  }

  /** No usable way to build it. */
  public static class NoConstructorProvider extends FailingProvider {
    public NoConstructorProvider(String unusable) {
    }
  }

  /** No keys, no container URI, instance metadata off: nothing to give, and no network. */
  private static final Map<String, String> EMPTY_ENV = Map.of("AWS_EC2_METADATA_DISABLED", "true");

  private static List<AWSCredentialsProvider> providers(Configuration c) throws IOException {
    return providers(c, "b");
  }

  private static List<AWSCredentialsProvider> providers(Configuration c, String bucket) throws IOException {
    return chain(c, bucket, EMPTY_ENV).providers();
  }

  private static V1CredentialProviderChain chain(Configuration c, String bucket, Map<String, String> env)
      throws IOException {
    return V1CredentialsBinding.create(S3ClientSettings.from(c, bucket), env::get);
  }

  private static AWSCredentials credentials(Configuration c, Map<String, String> env) throws IOException {
    return chain(c, "b", env).getCredentials();
  }

  private static Map<String, String> env(String... kv) {
    Map<String, String> m = new HashMap<>(EMPTY_ENV);
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  private static IllegalArgumentException fails(Configuration c) {
    return assertThrows(IllegalArgumentException.class, () -> S3ClientSettings.from(c, "b"));
  }

  /** What a user of s3a:// has: a fresh Configuration (core-default.xml loaded) with endpoint, keys, path style. */
  private static Configuration userConf(String... kv) {
    Configuration c = new Configuration();
    c.set("fs.s3a.endpoint", "http://127.0.0.1:4566");
    c.set("fs.s3a.path.style.access", "true");
    for (int i = 0; i < kv.length; i += 2) {
      c.set(kv[i], kv[i + 1]);
    }
    return c;
  }

  private static final String NOTHING_FROM_DEFAULT_LIST = "No AWS credentials from any provider in " + PROVIDER
      + ": TemporaryAWSCredentialsProvider and SimpleAWSCredentialsProvider: fs.s3a.access.key and"
      + " fs.s3a.secret.key are not set; EnvironmentVariableCredentialsProvider: environment variables"
      + " AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set; IAMInstanceCredentialsProvider: no container"
      + " credentials (AWS_CONTAINER_CREDENTIALS_FULL_URI and AWS_CONTAINER_CREDENTIALS_RELATIVE_URI are not set)"
      + " and the EC2 instance metadata service is disabled by AWS_EC2_METADATA_DISABLED";

  @Test
  void ourDefaultListIsWhatAFreshHadoopConfigurationLoads() {
    String[] loaded = new Configuration().getTrimmedStrings(PROVIDER);
    assertEquals(List.of(CredentialProviders.S3A_TEMPORARY, CredentialProviders.S3A_SIMPLE,
        CredentialProviders.SDK_ENVIRONMENT, CredentialProviders.S3A_IAM), List.of(loaded));
    assertEquals(String.join(",", loaded), StoreConstants.CREDENTIALS_PROVIDER_DEFAULT);
  }

  @Test
  void defaultListWithKeysInTheConfiguration() throws IOException {
    V1CredentialProviderChain chain = chain(userConf("fs.s3a.access.key", "AK", "fs.s3a.secret.key", "SK"), "b",
        EMPTY_ENV);
    assertEquals(4, chain.providers().size());
    AWSCredentials c = chain.getCredentials();
    assertEquals("AK", c.getAWSAccessKeyId());
    assertEquals("SK", c.getAWSSecretKey());
    assertFalse(c instanceof AWSSessionCredentials);
    // The configuration comes before the environment, as in the list.
    assertEquals("AK", credentials(userConf("fs.s3a.access.key", "AK", "fs.s3a.secret.key", "SK"),
        env("AWS_ACCESS_KEY_ID", "ENV", "AWS_SECRET_ACCESS_KEY", "ENVSK")).getAWSAccessKeyId());
  }

  @Test
  void defaultListWithASessionToken() throws IOException {
    AWSCredentials s = credentials(userConf("fs.s3a.access.key", "AK", "fs.s3a.secret.key", "SK",
        "fs.s3a.session.token", "TOK"), EMPTY_ENV);
    assertEquals("TOK", ((AWSSessionCredentials) s).getSessionToken());
    assertEquals("AK", s.getAWSAccessKeyId());
  }

  @Test
  void defaultListWithKeysInTheEnvironment() throws IOException {
    AWSCredentials c = credentials(userConf(), env("AWS_ACCESS_KEY_ID", "ENVAK", "AWS_SECRET_ACCESS_KEY", "ENVSK"));
    assertEquals("ENVAK", c.getAWSAccessKeyId());
    assertEquals("ENVSK", c.getAWSSecretKey());
    assertFalse(c instanceof AWSSessionCredentials);
    AWSCredentials s = credentials(userConf(), env("AWS_ACCESS_KEY_ID", "ENVAK", "AWS_SECRET_ACCESS_KEY", "ENVSK",
        "AWS_SESSION_TOKEN", "ENVTOK"));
    assertEquals("ENVTOK", ((AWSSessionCredentials) s).getSessionToken());
    // The SDK's older names are read too.
    assertEquals("OLD", credentials(userConf(), env("AWS_ACCESS_KEY", "OLD", "AWS_SECRET_KEY", "OLDSK"))
        .getAWSAccessKeyId());
  }

  @Test
  void defaultListWithNothingGivesOneErrorListingTheProviders() throws IOException {
    V1CredentialProviderChain chain = chain(userConf(), "b", EMPTY_ENV);
    V1NoCredentialsException e = assertThrows(V1NoCredentialsException.class, chain::getCredentials);
    assertEquals(NOTHING_FROM_DEFAULT_LIST, e.getMessage());
    assertFalse(e.getMessage().contains("session"), e.getMessage());
    assertFalse(e.isRetryable());
  }

  @Test
  void anEmptyListIsTheDefaultList() throws IOException {
    for (String empty : new String[] {"", " ", " ,\n"}) {
      V1CredentialProviderChain chain = chain(conf(PROVIDER, empty), "b", EMPTY_ENV);
      assertEquals(NOTHING_FROM_DEFAULT_LIST, assertThrows(V1NoCredentialsException.class, chain::getCredentials)
          .getMessage());
      assertEquals("SK", credentials(conf(PROVIDER, empty, "fs.s3a.access.key", "AK", "fs.s3a.secret.key", "SK"),
          EMPTY_ENV).getAWSSecretKey());
    }
    // Unset in a configuration without core-default.xml: the same.
    assertEquals(NOTHING_FROM_DEFAULT_LIST, assertThrows(V1NoCredentialsException.class,
        chain(conf(), "b", EMPTY_ENV)::getCredentials).getMessage());
  }

  @Test
  void perBucketKeysWinForThatBucket() throws IOException {
    Configuration c = conf("fs.s3a.access.key", "AK", "fs.s3a.secret.key", "SK",
        "fs.s3a.bucket.special.access.key", "AK2", "fs.s3a.bucket.special.secret.key", "SK2");
    assertEquals("AK2", chain(c, "special", EMPTY_ENV).getCredentials().getAWSAccessKeyId());
    assertEquals("SK", chain(c, "other", EMPTY_ENV).getCredentials().getAWSSecretKey());
  }

  @Test
  void halfAKeyPairFailsNamingTheMissingKey() {
    assertEquals("Incomplete S3 credentials: fs.s3a.secret.key is not set but fs.s3a.access.key is (set both keys,"
        + " or neither to let the other providers in fs.s3a.aws.credentials.provider answer)",
        fails(userConf("fs.s3a.access.key", "AK")).getMessage());
    assertEquals("Incomplete S3 credentials: fs.s3a.access.key is not set but fs.s3a.bucket.b.secret.key is (set"
        + " both keys, or neither to let the other providers in fs.s3a.aws.credentials.provider answer)",
        fails(conf("fs.s3a.bucket.b.secret.key", "SK")).getMessage());
    assertEquals("Incomplete S3 credentials: fs.s3a.access.key and fs.s3a.secret.key are not set but"
        + " fs.s3a.session.token is (set both keys, or neither to let the other providers in"
        + " fs.s3a.aws.credentials.provider answer)", fails(conf("fs.s3a.session.token", "T")).getMessage());
    assertEquals("Incomplete S3 credentials: fs.s3a.secret.key is not set but fs.s3a.access.key is (set both keys,"
        + " or neither to let the other providers in fs.s3a.aws.credentials.provider answer)",
        fails(conf(PROVIDER, CredentialProviders.S3A_SIMPLE, "fs.s3a.access.key", "AK")).getMessage());
    // Not read by the providers listed: not checked, as in S3A.
    assertDoesNotThrow(() -> S3ClientSettings.from(conf(PROVIDER, CredentialProviders.S3A_ANONYMOUS,
        "fs.s3a.access.key", "AK"), "b"));
  }

  @Test
  void halfAKeyPairInTheEnvironmentFailsNamingTheMissingVariable() throws IOException {
    S3ClientSettings s = S3ClientSettings.from(userConf(), "b");
    Map<String, String> half = env("AWS_ACCESS_KEY_ID", "ENVAK");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> V1CredentialsBinding.create(s, half::get));
    assertEquals("Incomplete AWS credentials in the environment: AWS_SECRET_ACCESS_KEY is not set but"
        + " AWS_ACCESS_KEY_ID is (set both, or neither to let the other providers answer)", e.getMessage());
  }

  @Test
  void simpleProviderAloneIgnoresTheToken() throws IOException {
    List<AWSCredentialsProvider> p = providers(conf(PROVIDER, CredentialProviders.S3A_SIMPLE,
        "fs.s3a.access.key", "AK", "fs.s3a.secret.key", "SK", "fs.s3a.session.token", "ignored"));
    assertEquals(1, p.size());
    AWSCredentials c = p.get(0).getCredentials();
    assertEquals("SK", c.getAWSSecretKey());
    assertFalse(c instanceof AWSSessionCredentials);
    assertEquals("No AWS credentials from any provider in " + PROVIDER + ": SimpleAWSCredentialsProvider:"
        + " fs.s3a.access.key and fs.s3a.secret.key are not set", assertThrows(V1NoCredentialsException.class,
        chain(conf(PROVIDER, CredentialProviders.S3A_SIMPLE), "b", EMPTY_ENV)::getCredentials).getMessage());
  }

  @Test
  void temporaryProviderAloneNeedsTheTokenAndSaysSo() throws IOException {
    AWSCredentials c = providers(conf(PROVIDER, CredentialProviders.S3A_TEMPORARY, "fs.s3a.access.key", "AK",
        "fs.s3a.secret.key", "SK", "fs.s3a.session.token", "TOK")).get(0).getCredentials();
    assertEquals("TOK", ((AWSSessionCredentials) c).getSessionToken());
    V1CredentialProviderChain noToken = chain(conf(PROVIDER, CredentialProviders.S3A_TEMPORARY,
        "fs.s3a.access.key", "AK", "fs.s3a.secret.key", "SK"), "b", EMPTY_ENV);
    assertEquals("No AWS credentials from any provider in " + PROVIDER + ": TemporaryAWSCredentialsProvider:"
        + " fs.s3a.access.key, fs.s3a.secret.key and fs.s3a.session.token are not set",
        assertThrows(V1NoCredentialsException.class, noToken::getCredentials).getMessage());
  }

  @Test
  void anonymousCredentials() throws IOException {
    List<AWSCredentialsProvider> p = providers(conf(PROVIDER, CredentialProviders.S3A_ANONYMOUS));
    assertEquals(1, p.size());
    assertTrue(p.get(0).getCredentials() instanceof AnonymousAWSCredentials);
    assertTrue(chain(conf(PROVIDER, CredentialProviders.S3A_ANONYMOUS), "b", EMPTY_ENV).getCredentials()
        instanceof AnonymousAWSCredentials);
  }

  @Test
  void containerCredentialsEndpointFromTheEnvironment() throws IOException {
    Configuration c = conf(PROVIDER, CredentialProviders.S3A_IAM);
    V1InstanceCredentialsProvider relative = (V1InstanceCredentialsProvider) chain(c, "b",
        env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "/v2/credentials/abc")).providers().get(0);
    assertEquals(URI.create("http://169.254.170.2/v2/credentials/abc"), relative.containerEndpoint());
    V1InstanceCredentialsProvider full = (V1InstanceCredentialsProvider) chain(c, "b",
        env("AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://127.0.0.1:1234/creds")).providers().get(0);
    assertEquals(URI.create("http://127.0.0.1:1234/creds"), full.containerEndpoint());
    // The SDK's own replacement rule: its instance provider is S3A's IAM provider.
    V1InstanceCredentialsProvider sdk = (V1InstanceCredentialsProvider) chain(conf(PROVIDER,
        CredentialProviders.SDK_INSTANCE), "b", env("AWS_CONTAINER_CREDENTIALS_FULL_URI", "https://h.example/c"))
        .providers().get(0);
    assertEquals(URI.create("https://h.example/c"), sdk.containerEndpoint());

    V1CredentialProviderChain remote = chain(c, "b",
        env("AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://10.0.0.1/creds"));
    assertNull(((V1InstanceCredentialsProvider) remote.providers().get(0)).containerEndpoint());
    assertEquals("No AWS credentials from any provider in " + PROVIDER + ": IAMInstanceCredentialsProvider:"
        + " container credentials: AWS_CONTAINER_CREDENTIALS_FULL_URI must be an https URL or name localhost or"
        + " 127.0.0.1", assertThrows(V1NoCredentialsException.class, remote::getCredentials).getMessage());
    V1CredentialProviderChain notAUrl = chain(c, "b", env("AWS_CONTAINER_CREDENTIALS_FULL_URI", "not a url"));
    assertEquals("No AWS credentials from any provider in " + PROVIDER + ": IAMInstanceCredentialsProvider:"
        + " container credentials: AWS_CONTAINER_CREDENTIALS_FULL_URI is not a URL",
        assertThrows(V1NoCredentialsException.class, notAUrl::getCredentials).getMessage());
    V1CredentialProviderChain noHost = chain(c, "b", env("AWS_CONTAINER_CREDENTIALS_FULL_URI", "file:/creds"));
    assertEquals("No AWS credentials from any provider in " + PROVIDER + ": IAMInstanceCredentialsProvider:"
        + " container credentials: AWS_CONTAINER_CREDENTIALS_FULL_URI is not a URL with a host",
        assertThrows(V1NoCredentialsException.class, noHost::getCredentials).getMessage());
  }

  @Test
  void customProvidersAreBuiltAndAskedInOrder() throws IOException {
    Configuration c = conf(PROVIDER, "\n  " + FailingProvider.class.getName() + ",\n  "
        + UriConfProvider.class.getName() + ",\n" + CredentialProviders.S3A_SIMPLE + ", "
        + ConfProvider.class.getName() + "," + SingletonProvider.class.getName() + "\n",
        "fs.s3a.access.key", "AK", "fs.s3a.secret.key", "SK",
        "custom.secret", "base", "fs.s3a.bucket.test-bucket.custom.secret", "ignored: not an fs.s3a key");
    List<AWSCredentialsProvider> p = providers(c, "test-bucket");
    assertEquals(5, p.size());
    assertTrue(p.get(0) instanceof FailingProvider);
    UriConfProvider uriConf = (UriConfProvider) p.get(1);
    assertEquals(URI.create("s3a://test-bucket"), uriConf.uri);
    assertEquals("SK", p.get(2).getCredentials().getAWSSecretKey());
    assertEquals("uri-conf-only", p.get(3).getCredentials().getAWSAccessKeyId());
    assertSame(SingletonProvider.INSTANCE, p.get(4));

    // The first provider fails, the second answers.
    AWSCredentials creds = chain(c, "test-bucket", EMPTY_ENV).getCredentials();
    assertEquals("uri-test-bucket", creds.getAWSAccessKeyId());
    assertEquals("base", creds.getAWSSecretKey());
  }

  @Test
  void customProvidersSeePerBucketOptionsPropagated() throws IOException {
    Configuration c = conf(PROVIDER, UriConfProvider.class.getName(), "fs.s3a.custom.secret", "base",
        "fs.s3a.bucket.special.custom.secret", "per-bucket");
    UriConfProvider special = (UriConfProvider) providers(c, "special").get(0);
    UriConfProvider other = (UriConfProvider) providers(c, "other").get(0);
    assertEquals("per-bucket", special.conf.get("fs.s3a.custom.secret"));
    assertEquals("base", other.conf.get("fs.s3a.custom.secret"));
  }

  @Test
  void customProvidersFailingGiveOneErrorWithoutRepeatingTheirMessages() throws IOException {
    V1CredentialProviderChain chain = chain(conf(PROVIDER, FailingProvider.class.getName() + ","
        + CredentialProviders.S3A_SIMPLE + "," + FailingProvider.class.getName()), "b", EMPTY_ENV);
    V1NoCredentialsException e = assertThrows(V1NoCredentialsException.class, chain::getCredentials);
    String failed = FailingProvider.class.getName() + ": failed with com.amazonaws.SdkClientException (its message"
        + " is in the causes of this exception)";
    assertEquals("No AWS credentials from any provider in " + PROVIDER + ": " + failed + "; SimpleAWSCredentials"
        + "Provider: fs.s3a.access.key and fs.s3a.secret.key are not set; " + failed, e.getMessage());
    assertEquals("nothing here", e.getCause().getMessage());
    assertEquals(1, e.getSuppressed().length);
  }

  @Test
  void unknownProviderClassFailsNamingKeyAndClass() {
    assertEquals("Credential provider class com.example.Missing in " + PROVIDER + " not found",
        fails(conf(PROVIDER, "com.example.Missing")).getMessage());
    assertEquals("Credential provider class com.example.Missing in fs.s3a.bucket.b.aws.credentials.provider"
        + " not found", fails(conf("fs.s3a.bucket.b.aws.credentials.provider", "com.example.Missing"))
        .getMessage());
    CredentialProviderException typed = assertThrows(CredentialProviderException.class,
        () -> S3ClientSettings.from(conf("fs.s3a.bucket.b.aws.credentials.provider", "com.example.Missing"), "b"));
    assertEquals("fs.s3a.bucket.b.aws.credentials.provider", typed.key());
    assertEquals("com.example.Missing", typed.className());
  }

  @Test
  void unusableProviderClassesFail() throws IOException {
    assertEquals("Credential provider class " + NotAProvider.class.getName() + " in " + PROVIDER
        + " does not implement com.amazonaws.auth.AWSCredentialsProvider (AWS SDK v1, Hadoop 3.3) nor"
        + " software.amazon.awssdk.auth.credentials.AwsCredentialsProvider (AWS SDK v2, Hadoop 3.4)",
        fails(conf(PROVIDER, NotAProvider.class.getName())).getMessage());
    assertTrue(fails(conf(PROVIDER, NoConstructorProvider.class.getName())).getMessage().startsWith(
        "Credential provider class " + NoConstructorProvider.class.getName() + " in " + PROVIDER
            + " has no public constructor"));
    // Valid at parse time; its constructor throws when the client is built.
    S3ClientSettings s = S3ClientSettings.from(conf(PROVIDER, ExplodingProvider.class.getName()), "b");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> V1CredentialsBinding.create(s, EMPTY_ENV::get));
    assertEquals("Credential provider class " + ExplodingProvider.class.getName() + " in " + PROVIDER
        + " could not be instantiated: java.lang.IllegalStateException", e.getMessage());
    assertEquals("boom", e.getCause().getMessage());
  }
}
