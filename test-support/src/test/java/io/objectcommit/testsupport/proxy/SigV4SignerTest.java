package io.objectcommit.testsupport.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The signer against the examples of AWS's SigV4 documentation for S3 (header-based authentication). */
class SigV4SignerTest {

  private static final SigV4Signer AWS_EXAMPLE = new SigV4Signer("AKIAIOSFODNN7EXAMPLE",
      "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "us-east-1");
  private static final ZonedDateTime WHEN = ZonedDateTime.of(2013, 5, 24, 0, 0, 0, 0, ZoneOffset.UTC);

  @Test
  void getBucketLifecycleExample() {
    Map<String, String> h = AWS_EXAMPLE.headers("GET", URI.create("http://examplebucket.s3.amazonaws.com/?lifecycle"),
        WHEN);
    assertEquals("20130524T000000Z", h.get("x-amz-date"));
    assertEquals("AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
        + "SignedHeaders=host;x-amz-content-sha256;x-amz-date, "
        + "Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543", h.get("Authorization"));
  }

  @Test
  void listObjectsExampleSortsTheQuery() {
    Map<String, String> h = AWS_EXAMPLE.headers("GET",
        URI.create("http://examplebucket.s3.amazonaws.com/?prefix=J&max-keys=2"), WHEN);
    assertEquals("34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7",
        h.get("Authorization").replaceAll(".*Signature=", ""));
  }

  @Test
  void encodesAsSigV4Wants() {
    assertEquals("a/b%20c~d%2A%2B", SigV4Signer.encode("a/b c~d*+", true));
    assertEquals("a%2Fb", SigV4Signer.encode("a/b", false));
  }
}
