package io.objectcommit.fs.impl;

import static io.objectcommit.fs.impl.S3ClientSettingsTest.conf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.SdkClientException;
import com.amazonaws.auth.AWSCredentials;
import com.amazonaws.auth.AWSCredentialsProvider;
import com.amazonaws.auth.AWSSessionCredentials;
import com.amazonaws.auth.AnonymousAWSCredentials;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.auth.DefaultAWSCredentialsProviderChain;
import com.amazonaws.auth.EC2ContainerCredentialsProviderWrapper;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class CredentialsBindingTest {

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

  private static List<AWSCredentialsProvider> providers(Configuration c) throws IOException {
    return providers(c, "b");
  }

  private static List<AWSCredentialsProvider> providers(Configuration c, String bucket) throws IOException {
    return ((CredentialsBinding.ProviderChain) CredentialsBinding.create(S3ClientSettings.from(c, bucket)))
        .providers();
  }

  private static IllegalArgumentException fails(Configuration c) {
    return assertThrows(IllegalArgumentException.class, () -> S3ClientSettings.from(c, "b"));
  }

  @Test
  void noKeysNoProvidersMeansTheSdkDefaultChain() throws IOException {
    List<AWSCredentialsProvider> p = providers(conf());
    assertEquals(1, p.size());
    assertSame(DefaultAWSCredentialsProviderChain.getInstance(), p.get(0));
  }

  @Test
  void keysWithoutProvidersAreUsed() throws IOException {
    AWSCredentials c = CredentialsBinding.create(S3ClientSettings.from(conf("fs.s3a.access.key", "AK",
        "fs.s3a.secret.key", "SK"), "b")).getCredentials();
    assertEquals("AK", c.getAWSAccessKeyId());
    assertEquals("SK", c.getAWSSecretKey());
    assertFalse(c instanceof AWSSessionCredentials);

    AWSCredentials s = CredentialsBinding.create(S3ClientSettings.from(conf("fs.s3a.access.key", "AK",
        "fs.s3a.secret.key", "SK", "fs.s3a.session.token", "TOK"), "b")).getCredentials();
    assertEquals("TOK", ((AWSSessionCredentials) s).getSessionToken());
  }

  @Test
  void perBucketKeysWinForThatBucket() throws IOException {
    Configuration c = conf("fs.s3a.access.key", "AK", "fs.s3a.secret.key", "SK",
        "fs.s3a.bucket.special.access.key", "AK2", "fs.s3a.bucket.special.secret.key", "SK2");
    assertEquals("AK2", CredentialsBinding.create(S3ClientSettings.from(c, "special")).getCredentials()
        .getAWSAccessKeyId());
    assertEquals("SK", CredentialsBinding.create(S3ClientSettings.from(c, "other")).getCredentials()
        .getAWSSecretKey());
  }

  @Test
  void oneKeyWithoutTheOtherFails() {
    assertEquals("Incomplete S3 credentials: fs.s3a.secret.key is not set (set all of them, or none to use the"
        + " AWS default chain)", fails(conf("fs.s3a.access.key", "AK")).getMessage());
    assertEquals("Incomplete S3 credentials: fs.s3a.access.key is not set (set all of them, or none to use the"
        + " AWS default chain)", fails(conf("fs.s3a.bucket.b.secret.key", "SK")).getMessage());
    assertEquals("Incomplete S3 credentials: fs.s3a.access.key and fs.s3a.secret.key are not set (set all of"
        + " them, or none to use the AWS default chain)", fails(conf("fs.s3a.session.token", "T")).getMessage());
  }

  @Test
  void s3aSimpleProviderMapsToStaticKeys() throws IOException {
    List<AWSCredentialsProvider> p = providers(conf(PROVIDER, CredentialsBinding.S3A_SIMPLE,
        "fs.s3a.access.key", "AK", "fs.s3a.secret.key", "SK", "fs.s3a.session.token", "ignored"));
    assertEquals(1, p.size());
    AWSCredentials c = p.get(0).getCredentials();
    assertEquals("SK", c.getAWSSecretKey());
    assertFalse(c instanceof AWSSessionCredentials);
    assertEquals("Incomplete S3 credentials for " + CredentialsBinding.S3A_SIMPLE + " in " + PROVIDER
        + ": fs.s3a.access.key and fs.s3a.secret.key are not set",
        fails(conf(PROVIDER, CredentialsBinding.S3A_SIMPLE)).getMessage());
  }

  @Test
  void s3aTemporaryProviderNeedsTheToken() throws IOException {
    AWSCredentials c = providers(conf(PROVIDER, CredentialsBinding.S3A_TEMPORARY, "fs.s3a.access.key", "AK",
        "fs.s3a.secret.key", "SK", "fs.s3a.session.token", "TOK")).get(0).getCredentials();
    assertEquals("TOK", ((AWSSessionCredentials) c).getSessionToken());
    assertEquals("Incomplete S3 credentials for " + CredentialsBinding.S3A_TEMPORARY + " in " + PROVIDER
        + ": fs.s3a.session.token is not set", fails(conf(PROVIDER, CredentialsBinding.S3A_TEMPORARY,
        "fs.s3a.access.key", "AK", "fs.s3a.secret.key", "SK")).getMessage());
  }

  @Test
  void s3aAnonymousAndIamProvidersAreMapped() throws IOException {
    List<AWSCredentialsProvider> p = providers(conf(PROVIDER,
        CredentialsBinding.S3A_ANONYMOUS + ", " + CredentialsBinding.S3A_IAM));
    assertTrue(p.get(0).getCredentials() instanceof AnonymousAWSCredentials);
    assertTrue(p.get(1) instanceof EC2ContainerCredentialsProviderWrapper);
  }

  @Test
  void customProvidersAreBuiltAndAskedInOrder() throws IOException {
    Configuration c = conf(PROVIDER, "\n  " + FailingProvider.class.getName() + ",\n  "
        + UriConfProvider.class.getName() + ",\n" + CredentialsBinding.S3A_SIMPLE + ", "
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
    AWSCredentialsProvider chain = CredentialsBinding.create(S3ClientSettings.from(c, "test-bucket"));
    AWSCredentials creds = chain.getCredentials();
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
  void allProvidersFailingGivesOneError() throws IOException {
    AWSCredentialsProvider chain = CredentialsBinding.create(S3ClientSettings.from(conf(PROVIDER,
        FailingProvider.class.getName()), "b"));
    SdkClientException e = assertThrows(SdkClientException.class, chain::getCredentials);
    assertTrue(e.getMessage().startsWith("No AWS credentials from any provider; "), e.getMessage());
    assertTrue(e.getMessage().endsWith(": nothing here"), e.getMessage());
  }

  @Test
  void unknownProviderClassFailsNamingKeyAndClass() {
    assertEquals("Credential provider class com.example.Missing in " + PROVIDER + " not found",
        fails(conf(PROVIDER, "com.example.Missing")).getMessage());
    assertEquals("Credential provider class com.example.Missing in fs.s3a.bucket.b.aws.credentials.provider"
        + " not found", fails(conf("fs.s3a.bucket.b.aws.credentials.provider", "com.example.Missing"))
        .getMessage());
  }

  @Test
  void unusableProviderClassesFail() throws IOException {
    assertEquals("Credential provider class " + NotAProvider.class.getName() + " in " + PROVIDER
        + " does not implement com.amazonaws.auth.AWSCredentialsProvider",
        fails(conf(PROVIDER, NotAProvider.class.getName())).getMessage());
    assertTrue(fails(conf(PROVIDER, NoConstructorProvider.class.getName())).getMessage().startsWith(
        "Credential provider class " + NoConstructorProvider.class.getName() + " in " + PROVIDER
            + " has no public constructor"));
    // Valid at parse time; its constructor throws when the client is built.
    S3ClientSettings s = S3ClientSettings.from(conf(PROVIDER, ExplodingProvider.class.getName()), "b");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CredentialsBinding.create(s));
    assertEquals("Credential provider class " + ExplodingProvider.class.getName() + " in " + PROVIDER
        + " could not be instantiated: java.lang.IllegalStateException", e.getMessage());
    assertEquals("boom", e.getCause().getMessage());
  }
}
