package io.objectcommit.store.impl.auth;

import static io.objectcommit.store.impl.client.S3ClientSettingsTest.conf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.auth.AWSCredentials;
import com.amazonaws.auth.AWSSessionCredentials;
import io.objectcommit.store.impl.client.S3ClientSettings;
import io.objectcommit.store.impl.v1.V1CredentialProviderChain;
import io.objectcommit.store.impl.v1.V1CredentialsBinding;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.alias.CredentialProvider;
import org.apache.hadoop.security.alias.CredentialProviderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Secrets never appear in toString(), describe(), cacheKey() or exception messages; credential stores work. */
class SecretsNotShownTest {

  private static final String SECRET = "Zq9SECRETxyzzyPlugh";
  private static final String TOKEN = "Zq9TOKENfrobozzQuux";
  private static final String ACCESS = "AKIAEXAMPLEACCESS";
  /** A valid SSE-C key (32 bytes) whose base64 text is distinctive. */
  private static final String SSE_C_KEY = Base64.getEncoder().encodeToString(
      "Zq9SSECkeyZq9SSECkeyZq9SSECkey!!".getBytes());

  private static void assertNoSecret(String text) {
    for (String s : new String[] {SECRET, TOKEN, SSE_C_KEY, "Zq9", ACCESS}) {
      assertFalse(text.contains(s), () -> "'" + s + "' shown in: " + text);
    }
  }

  @Test
  void settingsStringsShowNoSecret() throws IOException {
    S3ClientSettings s = S3ClientSettings.from(conf("fs.s3a.endpoint", "http://127.0.0.1:4566",
        "fs.s3a.access.key", ACCESS, "fs.s3a.secret.key", SECRET, "fs.s3a.session.token", TOKEN,
        "fs.s3a.encryption.algorithm", "SSE-C", "fs.s3a.encryption.key", SSE_C_KEY), "b");
    assertNoSecret(s.toString());
    assertNoSecret(s.describe());
    assertNoSecret(s.cacheKey());
    assertNoSecret(s.encryption().toString());
    assertNoSecret(V1CredentialsBinding.create(s).toString());
    assertTrue(s.toString().contains("credentials=providers (Hadoop's default list),"
        + " access key AKIA\u2026 with session token"), s.toString());
    assertTrue(s.toString().endsWith("encryption=SSE-C (key set)}"), s.toString());
  }

  @Test
  void errorsShowNoSecret() {
    String[][] bad = {
        // SSE-C key of the wrong length, not base64, AES256 with a key.
        {"fs.s3a.encryption.algorithm", "SSE-C", "fs.s3a.encryption.key",
            Base64.getEncoder().encodeToString("Zq9-too-short".getBytes())},
        {"fs.s3a.encryption.algorithm", "SSE-C", "fs.s3a.encryption.key", SECRET + "%%%"},
        {"fs.s3a.encryption.algorithm", "AES256", "fs.s3a.encryption.key", SSE_C_KEY},
        // Incomplete keys.
        {"fs.s3a.secret.key", SECRET, "fs.s3a.session.token", TOKEN},
        {"fs.s3a.access.key", ACCESS, "fs.s3a.session.token", TOKEN},
        {"fs.s3a.aws.credentials.provider", CredentialProviders.S3A_TEMPORARY, "fs.s3a.access.key", ACCESS},
        // Provider failing, endpoint with credentials in it.
        {"fs.s3a.aws.credentials.provider", "no.such.Provider", "fs.s3a.secret.key", SECRET},
        {"fs.s3a.endpoint", "http://" + ACCESS + ":" + SECRET + "@host:1"}};
    for (String[] kv : bad) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> S3ClientSettings.from(conf(kv), "b"));
      assertNoSecret(e.getMessage());
      assertNotNull(e.getMessage());
    }
  }

  @Test
  void providerChainShowsNoSecret() throws IOException {
    Map<String, String> env = Map.of("AWS_ACCESS_KEY_ID", ACCESS, "AWS_SECRET_ACCESS_KEY", SECRET,
        "AWS_SESSION_TOKEN", TOKEN, "AWS_EC2_METADATA_DISABLED", "true");
    V1CredentialProviderChain fromEnv = V1CredentialsBinding.create(S3ClientSettings.from(conf(), "b"), env::get);
    assertEquals(TOKEN, ((AWSSessionCredentials) fromEnv.getCredentials()).getSessionToken());
    assertNoSecret(fromEnv.toString());
    V1CredentialProviderChain fromConf = V1CredentialsBinding.create(S3ClientSettings.from(conf("fs.s3a.access.key",
        ACCESS, "fs.s3a.secret.key", SECRET, "fs.s3a.session.token", TOKEN), "b"), env::get);
    assertEquals(SECRET, fromConf.getCredentials().getAWSSecretKey());
    assertNoSecret(fromConf.toString());
    // Half a pair in the environment: the error names the variables, not their values.
    Map<String, String> half = Map.of("AWS_SECRET_ACCESS_KEY", SECRET);
    assertNoSecret(assertThrows(IllegalArgumentException.class,
        () -> V1CredentialsBinding.create(S3ClientSettings.from(conf(), "b"), half::get)).getMessage());
  }

  @Test
  void sseCKeyLengthIsChecked() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> S3ClientSettings.from(
        conf("fs.s3a.encryption.algorithm", "sse-c", "fs.s3a.encryption.key",
            Base64.getEncoder().encodeToString(new byte[16])), "b"));
    assertEquals("The SSE-C key in fs.s3a.encryption.key is 128 bits long: it must be a base64-encoded 256-bit"
        + " key", e.getMessage());
  }

  @Test
  void secretsFromAHadoopCredentialStore(@TempDir Path dir) throws Exception {
    String store = "localjceks://file" + new File(dir.toFile(), "s3.jceks").getAbsolutePath();
    Configuration c = conf(CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH, store);
    CredentialProvider provider = CredentialProviderFactory.getProviders(c).get(0);
    provider.createCredentialEntry("fs.s3a.access.key", ACCESS.toCharArray());
    provider.createCredentialEntry("fs.s3a.secret.key", SECRET.toCharArray());
    provider.createCredentialEntry("fs.s3a.bucket.special.session.token", TOKEN.toCharArray());
    provider.flush();
    // In the configuration too, but the store wins, as in Hadoop.
    c.set("fs.s3a.secret.key", "plain-text-loses");

    S3ClientSettings s = S3ClientSettings.from(c, "b");
    AWSCredentials creds = V1CredentialsBinding.create(s).getCredentials();
    assertEquals(ACCESS, creds.getAWSAccessKeyId());
    assertEquals(SECRET, creds.getAWSSecretKey());
    assertFalse(creds instanceof AWSSessionCredentials);

    // A per-bucket secret found only in the store applies to that bucket.
    AWSCredentials special = V1CredentialsBinding.create(S3ClientSettings.from(c, "special")).getCredentials();
    assertEquals(TOKEN, ((AWSSessionCredentials) special).getSessionToken());

    // The same store through S3A's own path key.
    Configuration viaS3a = conf("fs.s3a.security.credential.provider.path", store);
    assertEquals(SECRET, V1CredentialsBinding.create(S3ClientSettings.from(viaS3a, "b")).getCredentials()
        .getAWSSecretKey());
    assertNoSecret(s.toString() + s.cacheKey());
  }
}
