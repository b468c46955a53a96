package io.objectcommit.store.impl.v2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.ObjectVersion;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoredBytes;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.VersionPage;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.audit.AuditContext;
import io.objectcommit.store.audit.AuditSettings;
import io.objectcommit.store.audit.RequestAttribution;
import io.objectcommit.store.impl.EveryRequest;
import io.objectcommit.store.impl.RequestFailure;
import io.objectcommit.store.impl.S3Calls;
import io.objectcommit.store.impl.client.EncryptionSettings;
import io.objectcommit.store.spark.SparkStandIns;
import java.io.ByteArrayInputStream;
import java.lang.reflect.Proxy;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.AwsRequest;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadBucketResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsRequest;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

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
          if (a == null || args == null || !(args[0] instanceof SdkRequest)) {
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
    AwsRequest r = (AwsRequest) request;
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
        "uploadPart", a -> UploadPartResponse.builder().eTag("\"p\"")
            .build())), EncryptionSettings.none(), 900_000);
    calls.put("k", Payload.of(new byte[] {1}), WriteCondition.ifAbsent(), "id-1");
    calls.uploadPart("k", "u", 1, Payload.of(new byte[] {1}));
    for (Object r : requests) {
      AwsRequestOverrideConfiguration o = ((AwsRequest) r).overrideConfiguration()
          .orElseThrow();
      assertEquals(Optional.of(Duration.ofMinutes(15)), o.apiCallTimeout(), r.toString());
      assertEquals(Optional.of(Duration.ofMinutes(15)), o.apiCallAttemptTimeout(), r.toString());
    }
    assertEquals("*", header(requests.get(0), "If-None-Match"), "the condition is kept beside the timeout");

    new V2Calls("b", client(Map.of("putObject", a -> PutObjectResponse.builder().eTag("\"e1\"").build())),
        EncryptionSettings.none()).put("k", Payload.of(new byte[] {1}), WriteCondition.none(), "id-2");
    AwsRequestOverrideConfiguration none = ((AwsRequest) requests.get(2))
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
    Optional<StoredBytes> get() throws Exception;
  }

  private static Optional<StoredBytes> assertThrowsNothing(Get g) {
    try {
      return g.get();
    } catch (Exception e) {
      throw new AssertionError("unexpected " + e, e);
    }
  }

  /** Every request carries the attribution header through its override configuration, beside a condition. */
  @Test
  void everyRequestNamesItsOperationAndObject() throws Exception {
    GetObjectResponse got =
        GetObjectResponse.builder().eTag("\"e\"").build();
    Map<String, Function<Object[], Object>> answers = new HashMap<>();
    answers.put("putObject", a -> PutObjectResponse.builder().eTag("\"e\"").build());
    answers.put("headObject", a -> HeadObjectResponse.builder().eTag("\"e\"").contentLength(1L).build());
    answers.put("getObjectAsBytes", a -> ResponseBytes.fromByteArray(got,
        new byte[] {1}));
    answers.put("getObject", a -> new ResponseInputStream<>(got,
        AbortableInputStream.create(new ByteArrayInputStream(new byte[] {1}))));
    answers.put("headBucket", a -> HeadBucketResponse.builder().build());
    answers.put("deleteObject", a -> DeleteObjectResponse.builder()
        .build());
    answers.put("deleteObjects", a -> DeleteObjectsResponse.builder().build());
    answers.put("listObjectsV2", a -> ListObjectsV2Response.builder()
        .build());
    answers.put("createMultipartUpload", a -> software.amazon.awssdk.services.s3.model
        .CreateMultipartUploadResponse.builder().uploadId("u1").build());
    answers.put("uploadPart", a -> UploadPartResponse.builder()
        .eTag("\"p1\"").build());
    answers.put("completeMultipartUpload", a -> CompleteMultipartUploadResponse.builder().eTag("\"e-1\"").build());
    answers.put("abortMultipartUpload", a -> AbortMultipartUploadResponse
        .builder().build());
    answers.put("listMultipartUploads", a -> software.amazon.awssdk.services.s3.model
        .ListMultipartUploadsResponse.builder().build());
    answers.put("listObjectVersions", a -> ListObjectVersionsResponse.builder().build());
    RequestAttribution attribution = new RequestAttribution(
        AuditSettings.DEFAULT, AuditContext.of("staging")
        .withJob("j2").withTaskAttempt("attempt_1_0001_m_000000_0"),
        SparkStandIns.absent(), "b");
    S3Calls calls = new V2Calls("b", client(answers), EncryptionSettings.none(), 0, attribution);
    EveryRequest.send(calls, WriteCondition.ifMatch("e0"));

    List<String> seen = new ArrayList<>();
    for (Object r : requests) {
      String h = header(r, "Referer");
      Map<String, String> f = new LinkedHashMap<>();
      for (String part : h.substring(h.indexOf('?') + 1).split("&")) {
        int eq = part.indexOf('=');
        f.put(part.substring(0, eq), URLDecoder.decode(part.substring(eq + 1).replace("+", "%2B"),
            StandardCharsets.UTF_8));
      }
      assertEquals("staging", f.get("co"), h);
      assertEquals("j2", f.get("ji"), h);
      assertEquals("attempt_1_0001_m_000000_0", f.get("ta"), h);
      seen.add(f.get("op") + " " + f.get("p1"));
    }
    assertEquals(List.of("op_put s3a://b/k1", "op_put_conditional s3a://b/k2", "op_head s3a://b/k3",
        "op_get s3a://b/k4", "op_get s3a://b/k5", "op_head_bucket s3a://b/", "op_delete s3a://b/k6",
        "op_delete_bulk s3a://b/k7", "op_list s3a://b/dir/", "op_multipart_initiate s3a://b/k9",
        "op_multipart_part s3a://b/k9", "op_multipart_complete s3a://b/k9", "op_multipart_abort s3a://b/k9",
        "op_multipart_list s3a://b/up/", "op_list_versions s3a://b/v/"), seen);
    assertEquals("*", header(requests.get(1), "If-None-Match"), "the condition beside the header");
    assertEquals("\"e0\"", header(requests.get(11), "If-Match"), "the condition beside the header");
  }

  /** SDK v2 answers versions and delete markers in two lists: they come back in S3's order, newest first per key. */
  @Test
  void versionsAndDeleteMarkersComeBackInListingOrder() throws Exception {
    Instant t = Instant.ofEpochMilli(5_000);
    S3Calls calls = new V2Calls("b", client(Map.of("listObjectVersions", a -> ListObjectVersionsResponse.builder()
        .versions(software.amazon.awssdk.services.s3.model.ObjectVersion.builder().key("a").versionId("a1")
            .isLatest(false).size(4L).lastModified(t.minusSeconds(2)).build(),
            software.amazon.awssdk.services.s3.model.ObjectVersion.builder().key("b").versionId("b1").isLatest(true)
                .size(2L).lastModified(t).build(),
            software.amazon.awssdk.services.s3.model.ObjectVersion.builder().key("a").versionId("a0")
                .isLatest(false).size(3L).lastModified(t.minusSeconds(3)).build())
        .deleteMarkers(DeleteMarkerEntry.builder().key("a").versionId("a2").isLatest(true).lastModified(t).build())
        .isTruncated(true).nextKeyMarker("b").nextVersionIdMarker("b1").build())),
        EncryptionSettings.none());
    VersionPage page = calls.listVersions("", "k0", "v0", 3);
    assertEquals(List.of(new ObjectVersion("a", "a2", true, true, 0, 5_000),
        new ObjectVersion("a", "a1", false, false, 4, 3_000), new ObjectVersion("a", "a0", false, false, 3, 2_000),
        new ObjectVersion("b", "b1", true, false, 2, 5_000)), page.versions());
    assertEquals("b", page.nextKeyMarker().orElseThrow());
    assertEquals("b1", page.nextVersionIdMarker());
    ListObjectVersionsRequest sent = (ListObjectVersionsRequest) requests.get(0);
    assertEquals("k0", sent.keyMarker());
    assertEquals("v0", sent.versionIdMarker());
    assertEquals(3, sent.maxKeys());
  }
}
