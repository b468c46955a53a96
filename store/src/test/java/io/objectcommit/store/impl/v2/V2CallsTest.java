package io.objectcommit.store.impl.v2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.Payload;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.impl.client.EncryptionSettings;
import io.objectcommit.store.impl.RequestFailure;
import io.objectcommit.store.impl.S3Calls;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The SDK v2 binding's requests against a scripted {@link S3Client} (no network): conditions as headers of the
 * override configuration (SDK 2.24 has no typed field), the write id, SSE-C headers, unquoted ETags, and the v2
 * answers turned into what the v1 binding gives (304, refused keys of a bulk delete).
 */
class V2CallsTest {

  private final List<Object> requests = new ArrayList<>();

  private S3Client client(Map<String, Function<Object[], Object>> answers) {
    return (S3Client) Proxy.newProxyInstance(S3Client.class.getClassLoader(), new Class<?>[] {S3Client.class},
        (proxy, method, args) -> {
          if (method.getDeclaringClass() == Object.class) {
            return method.getName().equals("toString") ? "fake" : null;
          }
          Function<Object[], Object> a = answers.get(method.getName());
          if (a == null || args == null || !(args[0] instanceof software.amazon.awssdk.core.SdkRequest)) {
            throw new UnsupportedOperationException(method.toString());
          }
          requests.add(args[0]);
          Object r = a.apply(args);
          if (r instanceof RuntimeException) {
            throw (RuntimeException) r;
          }
          return r;
        });
  }

  private static String header(Object request, String name) {
    software.amazon.awssdk.awscore.AwsRequest r = (software.amazon.awssdk.awscore.AwsRequest) request;
    return r.overrideConfiguration().flatMap(o -> o.headers().getOrDefault(name, List.of()).stream().findFirst())
        .orElse(null);
  }

  @Test
  void conditionsGoAsHeadersAndEtagsComeUnquoted() throws Exception {
    S3Calls calls = new V2Calls("b", client(Map.of(
        "putObject", a -> PutObjectResponse.builder().eTag("\"e1\"").build(),
        "completeMultipartUpload", a -> CompleteMultipartUploadResponse.builder().eTag("\"e2-1\"").build())),
        EncryptionSettings.none());
    assertEquals("e1", calls.put("k", Payload.of(new byte[] {1}), WriteCondition.ifAbsent(), "id-1"));
    assertEquals("e1", calls.put("k", Payload.of(new byte[] {1}), WriteCondition.ifMatch("abc"), "id-2"));
    assertEquals("e1", calls.put("k", Payload.of(new byte[] {1}), WriteCondition.none(), "id-3"));
    PutObjectRequest exclusive = (PutObjectRequest) requests.get(0);
    assertEquals("*", header(exclusive, "If-None-Match"));
    assertEquals("id-1", exclusive.metadata().get(S3Calls.WRITE_ID));
    assertEquals("\"abc\"", header(requests.get(1), "If-Match"));
    assertEquals(null, header(requests.get(2), "If-None-Match"));
    assertEquals(null, header(requests.get(2), "If-Match"));

    assertEquals("e2-1", calls.completeMultipart("k", "u", List.of(new UploadedPart(1, "p1", 5)),
        WriteCondition.ifAbsent()));
    CompleteMultipartUploadRequest complete = (CompleteMultipartUploadRequest) requests.get(3);
    assertEquals("*", header(complete, "If-None-Match"));
    assertEquals(1, complete.multipartUpload().parts().get(0).partNumber());
  }

  @Test
  void requestsThatCarryDataGetTheUploadTimeout() throws Exception {
    S3Calls calls = new V2Calls("b", client(Map.of(
        "putObject", a -> PutObjectResponse.builder().eTag("\"e1\"").build(),
        "uploadPart", a -> software.amazon.awssdk.services.s3.model.UploadPartResponse.builder().eTag("\"p\"")
            .build())), EncryptionSettings.none(), 900_000);
    calls.put("k", Payload.of(new byte[] {1}), WriteCondition.ifAbsent(), "id-1");
    calls.uploadPart("k", "u", 1, Payload.of(new byte[] {1}));
    for (Object r : requests) {
      AwsRequestOverrideConfiguration o = ((software.amazon.awssdk.awscore.AwsRequest) r).overrideConfiguration()
          .orElseThrow();
      assertEquals(java.util.Optional.of(java.time.Duration.ofMinutes(15)), o.apiCallTimeout(), r.toString());
      assertEquals(java.util.Optional.of(java.time.Duration.ofMinutes(15)), o.apiCallAttemptTimeout(), r.toString());
    }
    assertEquals("*", header(requests.get(0), "If-None-Match"), "the condition is kept beside the timeout");

    new V2Calls("b", client(Map.of("putObject", a -> PutObjectResponse.builder().eTag("\"e1\"").build())),
        EncryptionSettings.none()).put("k", Payload.of(new byte[] {1}), WriteCondition.none(), "id-2");
    AwsRequestOverrideConfiguration none = ((software.amazon.awssdk.awscore.AwsRequest) requests.get(2))
        .overrideConfiguration().orElseThrow();
    assertTrue(none.apiCallTimeout().isEmpty(), "no upload timeout: the client's request timeout applies");
  }

  @Test
  void sseCSendsKeyAndMd5() throws Exception {
    String key = Base64.getEncoder().encodeToString(new byte[32]);
    EncryptionSettings sseC = EncryptionSettings.parse("SSE-C", "alg", key, "key");
    S3Calls calls = new V2Calls("b", client(Map.of(
        "putObject", a -> PutObjectResponse.builder().eTag("\"e\"").build(),
        "headObject", a -> HeadObjectResponse.builder().eTag("\"e\"").contentLength(1L)
            .metadata(Map.of(S3Calls.WRITE_ID, "w")).build())), sseC);
    calls.put("k", Payload.of(new byte[] {1}), WriteCondition.none(), "w");
    PutObjectRequest put = (PutObjectRequest) requests.get(0);
    assertEquals("AES256", put.sseCustomerAlgorithm());
    assertEquals(key, put.sseCustomerKey());
    assertEquals(sseC.customerKeyMd5Base64(), put.sseCustomerKeyMD5());
    S3Calls.ObjectHead head = calls.head("k");
    assertEquals("e", head.info().etag());
    assertEquals("w", head.writeId());
    assertFalse(requests.get(1).toString().contains(key), "the SDK's toString hides the key");
  }

  @Test
  void notModifiedIsAnAnswerAndRefusedKeysAFailure() {
    S3Exception notModified = (S3Exception) S3Exception.builder().statusCode(304)
        .awsErrorDetails(AwsErrorDetails.builder().errorCode("NotModified").build()).build();
    S3Calls calls = new V2Calls("b", client(Map.of(
        "getObjectAsBytes", a -> notModified,
        "getObject", a -> notModified,
        "deleteObjects", a -> DeleteObjectsResponse.builder().errors(S3Error.builder().key("k2")
            .code("AccessDenied").build()).build())), EncryptionSettings.none());
    assertTrue(assertThrowsNothing(() -> calls.get("k", "etag")).isEmpty());
    RequestFailure refused = assertThrows(RequestFailure.class, () -> calls.deleteBatch(List.of("k1", "k2")));
    assertEquals(List.of("k2 (AccessDenied)"), refused.refusedKeys());
  }

  private interface Get {
    java.util.Optional<io.objectcommit.store.StoredBytes> get() throws Exception;
  }

  private static java.util.Optional<io.objectcommit.store.StoredBytes> assertThrowsNothing(Get g) {
    try {
      return g.get();
    } catch (Exception e) {
      throw new AssertionError("unexpected " + e, e);
    }
  }
}
