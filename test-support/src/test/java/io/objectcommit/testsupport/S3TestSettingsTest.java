package io.objectcommit.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class S3TestSettingsTest {

  @Test
  void defaultsToAutomaticChoice() {
    assertEquals(S3TestSettings.Mode.AUTO, new S3TestSettings(Map.of()).mode());
  }

  @Test
  void anEndpointVariableMeansExternal() {
    S3TestSettings s = new S3TestSettings(Map.of(S3TestSettings.ENDPOINT, "http://127.0.0.1:9000",
        S3TestSettings.ACCESS_KEY, "minio", S3TestSettings.SECRET_KEY, "minio-secret"));
    assertEquals(S3TestSettings.Mode.EXTERNAL, s.mode());
    S3Endpoint e = s.externalEndpoint();
    assertEquals("http://127.0.0.1:9000", e.uri().toString());
    assertEquals("us-east-1", e.region());
    assertTrue(e.pathStyle());
    assertEquals(S3Endpoint.Kind.EXTERNAL, e.kind());
  }

  @Test
  void awsEndpointsDefaultToVirtualHostStyleAndStandardCredentialVariables() {
    S3TestSettings s = new S3TestSettings(Map.of(S3TestSettings.ENDPOINT, "https://s3.eu-west-1.amazonaws.com",
        S3TestSettings.REGION, "eu-west-1", "AWS_ACCESS_KEY_ID", "AKIAEXAMPLE", "AWS_SECRET_ACCESS_KEY", "sekrit"));
    S3Endpoint e = s.externalEndpoint();
    assertFalse(e.pathStyle());
    assertEquals("eu-west-1", e.region());
    assertEquals("AKIAEXAMPLE", e.accessKey());
  }

  @Test
  void missingCredentialsNameTheVariables() {
    S3TestSettings s = new S3TestSettings(Map.of(S3TestSettings.ENDPOINT, "http://127.0.0.1:9000"));
    IllegalStateException e = assertThrows(IllegalStateException.class, s::externalEndpoint);
    assertTrue(e.getMessage().contains(S3TestSettings.ACCESS_KEY), e.getMessage());
  }

  @Test
  void modeCanBeForcedAndBadModesAreNamed() {
    assertEquals(S3TestSettings.Mode.HOST, new S3TestSettings(Map.of(S3TestSettings.MODE, "host")).mode());
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> new S3TestSettings(Map.of(S3TestSettings.MODE, "kubernetes")).mode());
    assertTrue(e.getMessage().contains(S3TestSettings.MODE + "=kubernetes"), e.getMessage());
  }

  @Test
  void endpointToStringNeverShowsTheSecret() {
    S3Endpoint e = new S3Endpoint(S3Endpoint.Kind.EXTERNAL, "http://127.0.0.1:9000", "us-east-1", "AK", "s3cr3t-value",
        true);
    assertFalse(e.toString().contains("s3cr3t-value"), e.toString());
  }

  @Test
  void s3aOptionsPointAtTheEndpoint() {
    Map<String, String> o = new S3Endpoint(S3Endpoint.Kind.HOST, "http://127.0.0.1:4566", "us-east-1", "test",
        "test", true).s3aOptions();
    assertEquals("http://127.0.0.1:4566", o.get("fs.s3a.endpoint"));
    assertEquals("true", o.get("fs.s3a.path.style.access"));
    // Only what a user sets: the provider list, SSL, retries and timeouts stay at Hadoop's defaults.
    assertNull(o.get("fs.s3a.aws.credentials.provider"));
    assertNull(o.get("fs.s3a.connection.ssl.enabled"));
    assertNull(o.get("fs.s3a.retry.limit"));
  }

  @Test
  void noEndpointMessageSaysWhatToInstall() {
    String m = S3Endpoints.noEndpointMessage("no Python found");
    assertTrue(m.contains("Python 3.13"), m);
    assertTrue(m.contains("Docker"), m);
    assertTrue(m.contains(S3TestSettings.ENDPOINT), m);
  }

  @Test
  void bucketNamesAreValidDnsNames() {
    String n = S3TestBucket.bucketName("MyVeryLongTestClassName_withUnderscores-andAVeryLongMethodName(int, String)",
        "0123456789");
    assertTrue(n.matches("[a-z0-9][a-z0-9-]{1,61}[a-z0-9]"), n);
    assertTrue(n.length() <= 63, n);
    assertTrue(n.startsWith("oc-myverylongtestclassname-withunderscores"), n);
    assertTrue(n.endsWith("-0123456789"), n);
  }

  @Test
  void storeIsChosenByNameLocalStackByDefaultAndABadNameListsTheValidOnes() {
    Assumptions.assumeTrue(System.getProperty(S3TestSettings.STORE_PROPERTY) == null);
    assertEquals(S3Store.LOCALSTACK, new S3TestSettings(Map.of()).store());
    assertEquals(S3Store.S3MOCK, new S3TestSettings(Map.of(S3TestSettings.STORE, "S3Mock")).store());
    assertEquals(S3Store.EXTERNAL, new S3TestSettings(Map.of(S3TestSettings.STORE, "moto",
        S3TestSettings.ENDPOINT, "http://127.0.0.1:9000")).store());
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> new S3TestSettings(Map.of(S3TestSettings.STORE, "minio")).store());
    assertTrue(e.getMessage().contains("moto, moto-old, s3proxy"), e.getMessage());
  }

  @Test
  void tailKeepsTheLastLines() {
    assertEquals("c\nd", SupervisedServer.tail("a\nb\nc\nd", 2));
  }
}
