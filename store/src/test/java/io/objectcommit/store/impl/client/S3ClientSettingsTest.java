package io.objectcommit.store.impl.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.impl.auth.CredentialProviders;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

public class S3ClientSettingsTest {

  public static Configuration conf(String... kv) {
    Configuration c = new Configuration(false);
    for (int i = 0; i < kv.length; i += 2) {
      c.set(kv[i], kv[i + 1]);
    }
    return c;
  }

  static IllegalArgumentException fails(Configuration c, String bucket) {
    return assertThrows(IllegalArgumentException.class, () -> S3ClientSettings.from(c, bucket));
  }

  @Test
  void defaults() throws IOException {
    S3ClientSettings s = S3ClientSettings.from(conf(), "b");
    assertEquals("b", s.bucket());
    assertNull(s.endpointUrl());
    assertEquals("us-east-1", s.region());
    assertFalse(s.pathStyleAccess());
    assertTrue(s.https());
    assertEquals(96, s.maxConnections());
    assertEquals(5_000, s.establishTimeoutMs());
    assertEquals(200_000, s.socketTimeoutMs());
    assertEquals(0, s.requestTimeoutMs());
    assertEquals(EncryptionSettings.Method.NONE, s.encryption().algorithm());
    assertEquals("bucket 'b' at AWS S3 (region us-east-1)", s.describe());
    assertEquals("S3ClientSettings{bucket 'b' at AWS S3 (region us-east-1), pathStyle=false, https=true,"
        + " maxConnections=96, establishTimeoutMs=5000, socketTimeoutMs=200000, requestTimeoutMs=0,"
        + " v2{regionSetting=null, crossRegionAccess=true, acquisitionTimeoutMs=60000, connectionTtlMs=300000,"
        + " idleTimeMs=60000, tcpKeepAlive=false, expectContinue=true, partUploadTimeoutMs=900000,"
        + " checksumCalculation=false, md5Header=true},"
        + " credentials=providers (Hadoop's default list), no keys, encryption=none}",
        s.toString());
  }

  @Test
  void localStackSettings() throws IOException {
    S3ClientSettings s = S3ClientSettings.from(conf("fs.s3a.endpoint", "http://127.0.0.1:4566/",
        "fs.s3a.path.style.access", "true", "fs.s3a.connection.maximum", "7",
        "fs.s3a.connection.establish.timeout", "2s", "fs.s3a.connection.timeout", "1m",
        "fs.s3a.connection.request.timeout", "1500"), "test-bucket");
    assertEquals("http://127.0.0.1:4566", s.endpointUrl());
    assertFalse(s.https());
    assertTrue(s.pathStyleAccess());
    assertEquals(7, s.maxConnections());
    assertEquals(2_000, s.establishTimeoutMs());
    assertEquals(60_000, s.socketTimeoutMs());
    assertEquals(1_500, s.requestTimeoutMs());
    assertEquals("bucket 'test-bucket' at endpoint http://127.0.0.1:4566 (region us-east-1)", s.describe());
  }

  @ParameterizedTest
  @CsvSource({
      "minio.local:9000, true, https://minio.local:9000",
      "minio.local:9000, false, http://minio.local:9000",
      "HTTPS://Store.Example.COM, false, https://store.example.com",
      "http://store.example.com, true, http://store.example.com",
      "[::1]:9000, false, http://[::1]:9000"})
  void endpointIsNormalised(String endpoint, String ssl, String expected) throws IOException {
    S3ClientSettings s = S3ClientSettings.from(conf("fs.s3a.endpoint", endpoint,
        "fs.s3a.connection.ssl.enabled", ssl), "b");
    assertEquals(expected, s.endpointUrl());
    assertEquals(expected.startsWith("https:"), s.https());
  }

  @ParameterizedTest
  @CsvSource({
      "s3.eu-west-1.amazonaws.com, eu-west-1",
      "s3-ap-southeast-2.amazonaws.com, ap-southeast-2",
      "s3.dualstack.us-gov-west-1.amazonaws.com, us-gov-west-1",
      "s3.amazonaws.com, us-east-1",
      "eu-west-3.example.com, us-east-1"})
  void regionFollowsAnAwsEndpointUnlessSet(String endpoint, String region) throws IOException {
    assertEquals(region, S3ClientSettings.from(conf("fs.s3a.endpoint", endpoint), "b").region());
    assertEquals("sa-east-1", S3ClientSettings.from(conf("fs.s3a.endpoint", endpoint,
        "fs.s3a.endpoint.region", "sa-east-1"), "b").region());
  }

  @Test
  void perBucketOverridesWinForThatBucketOnly() throws IOException {
    Configuration c = conf("fs.s3a.endpoint", "http://base:1", "fs.s3a.endpoint.region", "eu-west-1",
        "fs.s3a.connection.maximum", "10",
        "fs.s3a.bucket.special.endpoint", "http://special:2", "fs.s3a.bucket.special.endpoint.region",
        "eu-central-1", "fs.s3a.bucket.special.path.style.access", "true",
        "fs.s3a.bucket.special.connection.maximum", "20", "fs.s3a.bucket.special.connection.timeout", "3s",
        "fs.s3a.bucket.special.encryption.algorithm", "SSE-KMS");
    S3ClientSettings special = S3ClientSettings.from(c, "special");
    S3ClientSettings other = S3ClientSettings.from(c, "other");
    assertEquals("http://special:2", special.endpointUrl());
    assertEquals("eu-central-1", special.region());
    assertTrue(special.pathStyleAccess());
    assertEquals(20, special.maxConnections());
    assertEquals(3_000, special.socketTimeoutMs());
    assertEquals(EncryptionSettings.Method.SSE_KMS, special.encryption().algorithm());
    assertEquals("http://base:1", other.endpointUrl());
    assertEquals("eu-west-1", other.region());
    assertFalse(other.pathStyleAccess());
    assertEquals(10, other.maxConnections());
    assertEquals(200_000, other.socketTimeoutMs());
    assertEquals(EncryptionSettings.Method.NONE, other.encryption().algorithm());
  }

  @ParameterizedTest
  @CsvSource({
      "connection.maximum, lots, an integer",
      "connection.maximum, 0, an integer from 1",
      "connection.establish.timeout, soon, a duration",
      "connection.establish.timeout, 0, at least 1 ms",
      "connection.timeout, 5 fortnights, a duration",
      "connection.timeout, 30d, at most 2147483647 ms",
      "connection.request.timeout, -1, a duration",
      "path.style.access, yes, true or false",
      "connection.ssl.enabled, maybe, true or false",
      "endpoint.region, Mars Base 1, a region name"})
  void badValueFailsNamingTheKey(String rest, String value, String expected) {
    IllegalArgumentException e = fails(conf("fs.s3a." + rest, value), "b");
    assertTrue(e.getMessage().contains("'" + value + "' of fs.s3a." + rest + ":"), e.getMessage());
    assertTrue(e.getMessage().contains(expected), e.getMessage());
    IllegalArgumentException perBucket = fails(conf("fs.s3a." + rest, "1", "fs.s3a.bucket.b.endpoint.region",
        "us-west-2", "fs.s3a.bucket.b." + rest, value), "b");
    assertTrue(perBucket.getMessage().contains("'" + value + "' of fs.s3a.bucket.b." + rest + ":"),
        perBucket.getMessage());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "http://| not a URL",
      "ftp://store.example.com| the scheme must be http or https",
      "http://store.example.com/test-bucket| no path, query or fragment",
      "http://store.example.com?x=1| no path, query or fragment",
      "http://store.example.com:99999| port 99999 is out of range",
      "http://bad host| not a URL",
      "http://under_score.example.com| no valid host name"})
  void malformedEndpointFailsNamingKeyAndBucket(String endpoint, String reason) {
    IllegalArgumentException e = fails(conf("fs.s3a.endpoint", endpoint), "test-bucket");
    assertTrue(e.getMessage().startsWith("Invalid S3 endpoint '" + endpoint + "' in fs.s3a.endpoint for bucket"
        + " 'test-bucket': "), e.getMessage());
    assertTrue(e.getMessage().contains(reason), e.getMessage());
    IllegalArgumentException perBucket = fails(conf("fs.s3a.endpoint", "http://ok:1",
        "fs.s3a.bucket.test-bucket.endpoint", endpoint), "test-bucket");
    assertTrue(perBucket.getMessage().startsWith("Invalid S3 endpoint '" + endpoint
        + "' in fs.s3a.bucket.test-bucket.endpoint for bucket 'test-bucket': "), perBucket.getMessage());
  }

  @Test
  void endpointWithUserInfoFailsWithoutEchoingIt() {
    IllegalArgumentException e = fails(conf("fs.s3a.endpoint", "http://AKIDX:S3cr3tXyzzy@store:9000"), "b");
    assertEquals("Invalid S3 endpoint in fs.s3a.endpoint for bucket 'b': it must not contain user info"
        + " (user:password@); give credentials with the fs.s3a credential keys", e.getMessage());
  }

  @Test
  void cacheKeyEqualExactlyWhenSettingsEqual() throws IOException {
    String[] base = {"fs.s3a.endpoint", "http://h:1", "fs.s3a.access.key", "AKIDEXAMPLE1",
        "fs.s3a.secret.key", "secretOne"};
    S3ClientSettings a = S3ClientSettings.from(conf(base), "b");
    S3ClientSettings same = S3ClientSettings.from(conf(base), "b");
    assertEquals(a.cacheKey(), same.cacheKey());
    assertEquals(a, same);
    assertEquals(a.hashCode(), same.hashCode());
    // Written differently, same effective settings.
    S3ClientSettings spelled = S3ClientSettings.from(conf("fs.s3a.bucket.b.endpoint", "http://H:1/",
        "fs.s3a.access.key", "AKIDEXAMPLE1", "fs.s3a.secret.key", "secretOne",
        "fs.s3a.connection.maximum", "96"), "b");
    assertEquals(a.cacheKey(), spelled.cacheKey());

    String[][] variants = {
        {"fs.s3a.secret.key", "secretTwo"}, {"fs.s3a.access.key", "AKIDEXAMPLE2"},
        {"fs.s3a.session.token", "tok"}, {"fs.s3a.endpoint", "http://h:2"}, {"fs.s3a.endpoint.region", "x-y-1"},
        {"fs.s3a.path.style.access", "true"}, {"fs.s3a.connection.maximum", "5"},
        {"fs.s3a.connection.establish.timeout", "1"}, {"fs.s3a.connection.timeout", "1"},
        {"fs.s3a.connection.request.timeout", "1"}, {"fs.s3a.encryption.algorithm", "AES256"},
        {"fs.s3a.aws.credentials.provider", CredentialProviders.S3A_ANONYMOUS}};
    for (String[] v : variants) {
      Configuration c = conf(base);
      c.set(v[0], v[1]);
      assertNotEquals(a.cacheKey(), S3ClientSettings.from(c, "b").cacheKey(), v[0]);
    }
    assertNotEquals(a.cacheKey(), S3ClientSettings.from(conf(base), "other").cacheKey());
  }

  @Test
  void kmsKeyChangesCacheKey() throws IOException {
    S3ClientSettings k1 = S3ClientSettings.from(conf("fs.s3a.encryption.algorithm", "SSE-KMS",
        "fs.s3a.encryption.key", "arn:one"), "b");
    S3ClientSettings k2 = S3ClientSettings.from(conf("fs.s3a.encryption.algorithm", "SSE-KMS",
        "fs.s3a.encryption.key", "arn:two"), "b");
    assertNotEquals(k1.cacheKey(), k2.cacheKey());
  }

  @Test
  void oldEncryptionKeyNamesStillWork() throws IOException {
    S3ClientSettings s = S3ClientSettings.from(conf("fs.s3a.server-side-encryption-algorithm", "SSE-KMS",
        "fs.s3a.server-side-encryption.key", "arn:aws:kms:eu-west-1:1:key/k"), "b");
    assertEquals(EncryptionSettings.Method.SSE_KMS, s.encryption().algorithm());
    assertTrue(s.encryption().hasKey());
    IllegalArgumentException e = fails(conf("fs.s3a.server-side-encryption-algorithm", "AES256",
        "fs.s3a.server-side-encryption.key", "k"), "b");
    assertEquals("fs.s3a.server-side-encryption-algorithm is AES256 (keys managed by S3) but"
        + " fs.s3a.server-side-encryption.key is set too: unset the key, or use SSE-KMS or SSE-C", e.getMessage());
  }

  @Test
  void unknownEncryptionAlgorithmFailsNamingThePerBucketKey() {
    IllegalArgumentException e = fails(conf("fs.s3a.bucket.b.encryption.algorithm", "ROT13"), "b");
    assertEquals("Unknown encryption algorithm 'ROT13' in fs.s3a.bucket.b.encryption.algorithm: expected one of"
        + " AES256, SSE-KMS, SSE-C or empty for none", e.getMessage());
  }

  @Test
  void sseCWithoutKeyFails() {
    IllegalArgumentException e = fails(conf("fs.s3a.encryption.algorithm", "SSE-C"), "b");
    assertEquals("fs.s3a.encryption.algorithm is SSE-C but fs.s3a.encryption.key is not set: SSE-C needs a"
        + " base64-encoded 256-bit key", e.getMessage());
  }
}
