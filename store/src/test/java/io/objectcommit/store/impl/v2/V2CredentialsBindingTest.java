package io.objectcommit.store.impl.v2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.auth.AWSCredentials;
import com.amazonaws.auth.AWSCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.impl.auth.CredentialProviderException;
import io.objectcommit.store.impl.auth.CredentialProviders;
import io.objectcommit.store.impl.client.S3ClientSettings;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.alias.CredentialProvider;
import org.apache.hadoop.security.alias.CredentialProviderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

/** Credentials on the SDK v2 as S3A 3.4 resolves them, without network. */
class V2CredentialsBindingTest {

  private static final String PROVIDER = "fs.s3a.aws.credentials.provider";

  /** No keys, no container URI, instance metadata off: nothing to give, and no network. */
  private static final Map<String, String> EMPTY_ENV = Map.of("AWS_EC2_METADATA_DISABLED", "true");

  private static final String ENV_NEEDS = "EnvironmentVariableCredentialsProvider: environment variables"
      + " AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set";
  private static final String IAM_NEEDS = "IAMInstanceCredentialsProvider: no container credentials"
      + " (AWS_CONTAINER_CREDENTIALS_FULL_URI and AWS_CONTAINER_CREDENTIALS_RELATIVE_URI are not set) and the EC2"
      + " instance metadata service is disabled by AWS_EC2_METADATA_DISABLED";
  private static final String KEYS_NEEDS = "fs.s3a.access.key and fs.s3a.secret.key are not set";

  /** An SDK v2 provider with S3A's preferred constructor. */
  public static class UriConfProvider implements AwsCredentialsProvider {
    final URI uri;
    final Configuration conf;

    public UriConfProvider(URI uri, Configuration conf) {
      this.uri = uri;
      this.conf = conf;
    }

    @Override
    public AwsCredentials resolveCredentials() {
      return AwsBasicCredentials.create("uri-" + uri.getHost(), conf.get("fs.s3a.custom.secret", "none"));
    }
  }

  /** Only a static create(), as the SDK's own providers have. */
  public static final class CreateOnlyProvider implements AwsCredentialsProvider {
    private CreateOnlyProvider() {
    }

    public static CreateOnlyProvider create() {
      return new CreateOnlyProvider();
    }

    @Override
    public AwsCredentials resolveCredentials() {
      return AwsBasicCredentials.create("created", "secret");
    }
  }

  /** A static create() declared to return the SDK's interface. */
  public static final class InterfaceFactoryProvider implements AwsCredentialsProvider {
    private InterfaceFactoryProvider() {
    }

    public static AwsCredentialsProvider create() {
      return new InterfaceFactoryProvider();
    }

    @Override
    public AwsCredentials resolveCredentials() {
      return AwsBasicCredentials.create("from-interface-factory", "secret");
    }
  }

  /** An SDK v1 provider: unusable on the SDK v2. */
  public static class V1Provider implements AWSCredentialsProvider {
    @Override
    public AWSCredentials getCredentials() {
      return new BasicAWSCredentials("a", "b");
    }

    @Override
    public void refresh() {
    }
  }

  private static Configuration conf(String... kv) {
    Configuration c = new Configuration(false);
    c.set("fs.s3a.endpoint", "http://127.0.0.1:4566");
    for (int i = 0; i < kv.length; i += 2) {
      c.set(kv[i], kv[i + 1]);
    }
    return c;
  }

  /** What a user of s3a:// has: a fresh Configuration (core-default.xml loaded). */
  private static Configuration userConf(String... kv) {
    Configuration c = new Configuration();
    c.set("fs.s3a.endpoint", "http://127.0.0.1:4566");
    c.set("fs.s3a.path.style.access", "true");
    for (int i = 0; i < kv.length; i += 2) {
      c.set(kv[i], kv[i + 1]);
    }
    return c;
  }

  private static Map<String, String> env(String... kv) {
    Map<String, String> m = new HashMap<>(EMPTY_ENV);
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  private static V2CredentialProviderChain chain(Configuration c, Map<String, String> env) throws IOException {
    return V2CredentialsBinding.create(S3ClientSettings.from(c, "test-bucket"), env::get);
  }

  private static String nothing(Configuration c) throws IOException {
    V2NoCredentialsException e = assertThrows(V2NoCredentialsException.class,
        chain(c, EMPTY_ENV)::resolveCredentials);
    assertFalse(e.retryable());
    return e.getMessage();
  }

  @Test
  void hadoop34DefaultListWithKeysInTheConfiguration() throws IOException {
    AwsCredentials c = chain(conf(PROVIDER, StoreConstants.CREDENTIALS_PROVIDER_DEFAULT_V2,
        "fs.s3a.access.key", "AK", "fs.s3a.secret.key", "SK"), EMPTY_ENV).resolveCredentials();
    assertEquals("AK", c.accessKeyId());
    assertEquals("SK", c.secretAccessKey());
    assertFalse(c instanceof AwsSessionCredentials);
    // The same with the list a Hadoop 3.3 core-default.xml gives (SDK v1 names), as S3A 3.4 maps them.
    assertEquals("AK", chain(userConf("fs.s3a.access.key", "AK", "fs.s3a.secret.key", "SK"), EMPTY_ENV)
        .resolveCredentials().accessKeyId());
  }

  @Test
  void sessionTokenKeysAndEnvironment() throws IOException {
    AwsCredentials s = chain(userConf("fs.s3a.access.key", "AK", "fs.s3a.secret.key", "SK",
        "fs.s3a.session.token", "TOK"), EMPTY_ENV).resolveCredentials();
    assertEquals("TOK", ((AwsSessionCredentials) s).sessionToken());
    AwsCredentials e = chain(userConf(), env("AWS_ACCESS_KEY_ID", "ENVAK", "AWS_SECRET_ACCESS_KEY", "ENVSK"))
        .resolveCredentials();
    assertEquals("ENVAK", e.accessKeyId());
    assertFalse(e instanceof AwsSessionCredentials);
    AwsCredentials et = chain(userConf(), env("AWS_ACCESS_KEY_ID", "ENVAK", "AWS_SECRET_ACCESS_KEY", "ENVSK",
        "AWS_SESSION_TOKEN", "ENVTOK")).resolveCredentials();
    assertEquals("ENVTOK", ((AwsSessionCredentials) et).sessionToken());
  }

  @Test
  void nothingFromTheDefaultListGivesOneTypedErrorNamingEveryProvider() throws IOException {
    String expected = "No AWS credentials from any provider in " + PROVIDER + ": TemporaryAWSCredentialsProvider"
        + " and SimpleAWSCredentialsProvider: " + KEYS_NEEDS + "; " + ENV_NEEDS + "; " + IAM_NEEDS;
    assertEquals(expected, nothing(conf(PROVIDER, StoreConstants.CREDENTIALS_PROVIDER_DEFAULT_V2)));
    assertEquals(expected, nothing(userConf()));
    assertFalse(expected.contains("session"));
  }

  @Test
  void anEmptyListIsHadoop34sStandardListInItsOrder() throws IOException {
    assertEquals(List.of(CredentialProviders.V2_ENVIRONMENT, CredentialProviders.S3A_IAM,
        CredentialProviders.S3A_SIMPLE, CredentialProviders.S3A_TEMPORARY),
        CredentialProviders.Line.HADOOP_3_4.defaults());
    String expected = "No AWS credentials from any provider in " + PROVIDER + ": " + ENV_NEEDS + "; " + IAM_NEEDS
        + "; SimpleAWSCredentialsProvider and TemporaryAWSCredentialsProvider: " + KEYS_NEEDS;
    assertEquals(expected, nothing(conf(PROVIDER, " ")));
    assertEquals(expected, nothing(conf()));
  }

  @Test
  void sdkV1NamesAreMappedAsS3a34MapsThem() throws IOException {
    V2CredentialProviderChain c = chain(conf(PROVIDER, "com.amazonaws.auth.EnvironmentVariableCredentialsProvider,"
        + "com.amazonaws.auth.InstanceProfileCredentialsProvider,"
        + "com.amazonaws.auth.EC2ContainerCredentialsProviderWrapper,com.amazonaws.auth.AnonymousAWSCredentials"),
        EMPTY_ENV);
    assertTrue(c.providers().get(0) instanceof V2KeysCredentialsProvider);
    assertTrue(c.providers().get(1) instanceof V2InstanceCredentialsProvider);
    assertTrue(c.providers().get(2) instanceof V2InstanceCredentialsProvider);
    // The anonymous provider answers: no keys, unsigned requests.
    AwsCredentials anonymous = c.resolveCredentials();
    assertNull(anonymous.accessKeyId());
    assertNull(anonymous.secretAccessKey());
  }

  @Test
  void theProviderMappingRenamesEntries() throws IOException {
    Configuration c = conf(PROVIDER, "com.example.OldProvider",
        "fs.s3a.aws.credentials.provider.mapping", "com.example.Other=x.Y, com.example.OldProvider="
            + CreateOnlyProvider.class.getName());
    assertEquals("created", chain(c, EMPTY_ENV).resolveCredentials().accessKeyId());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> S3ClientSettings.from(
        conf("fs.s3a.bucket.test-bucket.aws.credentials.provider.mapping", "no-equals-sign"), "test-bucket"));
    assertEquals("Invalid entry 'no-equals-sign' in fs.s3a.bucket.test-bucket.aws.credentials.provider.mapping:"
        + " expected old.ClassName=new.ClassName", e.getMessage());
  }

  @Test
  void customSdkV2ProvidersAreBuiltAsS3a34BuildsThem() throws IOException {
    V2CredentialProviderChain c = chain(conf(PROVIDER, UriConfProvider.class.getName() + ","
        + CreateOnlyProvider.class.getName(), "fs.s3a.bucket.test-bucket.custom.secret", "per-bucket"), EMPTY_ENV);
    UriConfProvider first = (UriConfProvider) c.providers().get(0);
    assertEquals(URI.create("s3a://test-bucket"), first.uri);
    assertEquals("per-bucket", c.resolveCredentials().secretAccessKey());
    assertEquals("created", c.providers().get(1).resolveCredentials().accessKeyId());
    assertEquals("from-interface-factory", chain(conf(PROVIDER, InterfaceFactoryProvider.class.getName()),
        EMPTY_ENV).resolveCredentials().accessKeyId());
  }

  @Test
  void aMissingClassOrAnSdkV1ProviderIsATypedErrorNamingTheKey() throws IOException {
    CredentialProviderException missing = assertThrows(CredentialProviderException.class,
        () -> S3ClientSettings.from(conf("fs.s3a.bucket.test-bucket.aws.credentials.provider", "com.example.Gone"),
            "test-bucket"));
    assertEquals("fs.s3a.bucket.test-bucket.aws.credentials.provider", missing.key());
    assertEquals("Credential provider class com.example.Gone in fs.s3a.bucket.test-bucket.aws.credentials.provider"
        + " not found", missing.getMessage());
    // An SDK v1 provider passes the SDK-neutral check, and fails when the v2 client is built.
    S3ClientSettings s = S3ClientSettings.from(conf(PROVIDER, V1Provider.class.getName()), "test-bucket");
    CredentialProviderException v1 = assertThrows(CredentialProviderException.class,
        () -> V2CredentialsBinding.create(s, EMPTY_ENV::get));
    assertEquals(V1Provider.class.getName(), v1.className());
    assertTrue(v1.getMessage().contains("does not implement software.amazon.awssdk.auth.credentials"
        + ".AwsCredentialsProvider"), v1.getMessage());
  }

  @Test
  void instanceCredentialsHonourTheMetadataSwitchAndContainerVariables() throws IOException {
    V2CredentialProviderChain iam = chain(conf(PROVIDER, CredentialProviders.S3A_IAM), EMPTY_ENV);
    assertEquals("No AWS credentials from any provider in " + PROVIDER + ": " + IAM_NEEDS,
        assertThrows(V2NoCredentialsException.class, iam::resolveCredentials).getMessage());
    V2CredentialProviderChain container = chain(conf(PROVIDER, CredentialProviders.S3A_IAM),
        env("AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://127.0.0.1:9/creds"));
    assertEquals(URI.create("http://127.0.0.1:9/creds"),
        ((V2InstanceCredentialsProvider) container.providers().get(0)).containerEndpoint());
    V2CredentialProviderChain remote = chain(conf(PROVIDER, CredentialProviders.S3A_IAM),
        env("AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://creds.example.com/x"));
    assertTrue(assertThrows(V2NoCredentialsException.class, remote::resolveCredentials).getMessage()
        .endsWith("must be an https URL or name localhost or 127.0.0.1"));
    container.close();
  }

  @Test
  void keysFromAHadoopCredentialStoreAndPerBucketKeys(@TempDir Path dir) throws IOException {
    String store = "localjceks://file" + new File(dir.toFile(), "s3.jceks").getAbsolutePath();
    Configuration c = conf("fs.s3a.security.credential.provider.path", store,
        "fs.s3a.secret.key", "plain-text-loses");
    CredentialProvider provider = CredentialProviderFactory.getProviders(
        conf(CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH, store)).get(0);
    provider.createCredentialEntry("fs.s3a.access.key", "STOREAK".toCharArray());
    provider.createCredentialEntry("fs.s3a.secret.key", "STORESK".toCharArray());
    provider.flush();
    AwsCredentials fromStore = chain(c, EMPTY_ENV).resolveCredentials();
    assertEquals("STOREAK", fromStore.accessKeyId());
    assertEquals("STORESK", fromStore.secretAccessKey());

    Configuration perBucket = conf("fs.s3a.access.key", "AK", "fs.s3a.secret.key", "SK",
        "fs.s3a.bucket.test-bucket.access.key", "AK2", "fs.s3a.bucket.test-bucket.secret.key", "SK2");
    assertEquals("AK2", chain(perBucket, EMPTY_ENV).resolveCredentials().accessKeyId());
    assertEquals("AK", V2CredentialsBinding.create(S3ClientSettings.from(perBucket, "other-bucket"),
        EMPTY_ENV::get).resolveCredentials().accessKeyId());
  }

  @Test
  void halfAKeyPairFailsNamingTheMissingKey() throws IOException {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> S3ClientSettings.from(userConf("fs.s3a.access.key", "AK"), "test-bucket"));
    assertTrue(e.getMessage().startsWith("Incomplete S3 credentials: fs.s3a.secret.key is not set but"
        + " fs.s3a.access.key is"), e.getMessage());
    S3ClientSettings s = S3ClientSettings.from(userConf(), "test-bucket");
    Map<String, String> half = env("AWS_ACCESS_KEY_ID", "AK");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> V2CredentialsBinding.create(s, half::get))
        .getMessage().startsWith("Incomplete AWS credentials in the environment: AWS_SECRET_ACCESS_KEY is not set"));
  }

  @Test
  void noSecretInTheChainsDescription() throws IOException {
    String text = chain(userConf("fs.s3a.access.key", "AKIAEXAMPLEKEY123456", "fs.s3a.secret.key", "SECRETSECRET",
        "fs.s3a.session.token", "TOKENTOKEN"), EMPTY_ENV).toString();
    assertFalse(text.contains("SECRETSECRET") || text.contains("TOKENTOKEN") || text.contains("EXAMPLEKEY"), text);
  }
}
