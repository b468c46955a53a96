package io.objectcommit.store.impl.v1;

import static io.objectcommit.store.impl.FakeS3.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.AmazonWebServiceRequest;
import com.amazonaws.services.s3.model.CompleteMultipartUploadResult;
import com.amazonaws.services.s3.model.DeleteObjectsResult;
import com.amazonaws.services.s3.model.HeadBucketResult;
import com.amazonaws.services.s3.model.InitiateMultipartUploadResult;
import com.amazonaws.services.s3.model.ListObjectsV2Result;
import com.amazonaws.services.s3.model.MultipartUploadListing;
import com.amazonaws.services.s3.model.ObjectMetadata;
import com.amazonaws.services.s3.model.PutObjectResult;
import com.amazonaws.services.s3.model.S3Object;
import com.amazonaws.services.s3.model.UploadPartResult;
import com.amazonaws.services.s3.model.VersionListing;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.audit.AuditContext;
import io.objectcommit.store.audit.AuditSettings;
import io.objectcommit.store.audit.RequestAttribution;
import io.objectcommit.store.impl.EveryRequest;
import io.objectcommit.store.impl.FakeS3;
import io.objectcommit.store.impl.S3Calls;
import io.objectcommit.store.impl.client.EncryptionSettings;
import io.objectcommit.store.spark.SparkStandIns;
import java.io.ByteArrayInputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every request of the SDK v1 binding carries the attribution header as a custom request header, naming its
 * operation and object; none with the header off. On a scripted client (no network).
 */
class V1CallsAttributionTest {

  /** Each SDK method, the operation its header names, and the object. */
  private static final Map<String, String> EXPECTED = new LinkedHashMap<>();

  static {
    EXPECTED.put("putObject", "op_put s3a://b/k1|op_put_conditional s3a://b/k2");
    EXPECTED.put("getObjectMetadata", "op_head s3a://b/k3");
    EXPECTED.put("getObject", "op_get s3a://b/k4|op_get s3a://b/k5");
    EXPECTED.put("headBucket", "op_head_bucket s3a://b/");
    EXPECTED.put("deleteObject", "op_delete s3a://b/k6");
    EXPECTED.put("deleteObjects", "op_delete_bulk s3a://b/k7");
    EXPECTED.put("listObjectsV2", "op_list s3a://b/dir/");
    EXPECTED.put("initiateMultipartUpload", "op_multipart_initiate s3a://b/k9");
    EXPECTED.put("uploadPart", "op_multipart_part s3a://b/k9");
    EXPECTED.put("completeMultipartUpload", "op_multipart_complete s3a://b/k9");
    EXPECTED.put("abortMultipartUpload", "op_multipart_abort s3a://b/k9");
    EXPECTED.put("listMultipartUploads", "op_multipart_list s3a://b/up/");
    EXPECTED.put("listVersions", "op_list_versions s3a://b/v/");
  }

  private static FakeS3 scripted() {
    FakeS3 s3 = new FakeS3();
    PutObjectResult put = new PutObjectResult();
    put.setETag("e");
    ObjectMetadata md = new ObjectMetadata();
    md.setContentLength(1);
    md.setHeader("ETag", "e");
    s3.on("putObject", value(put));
    s3.on("getObjectMetadata", value(md));
    s3.on("getObject", args -> {
      S3Object o = new S3Object();
      o.setObjectContent(new ByteArrayInputStream(new byte[] {1}));
      o.setObjectMetadata(md);
      return o;
    });
    s3.on("headBucket", value(new HeadBucketResult()));
    s3.on("deleteObject", value(null));
    s3.on("deleteObjects", value(new DeleteObjectsResult(List.of())));
    s3.on("listObjectsV2", value(new ListObjectsV2Result()));
    InitiateMultipartUploadResult init = new InitiateMultipartUploadResult();
    init.setUploadId("u1");
    s3.on("initiateMultipartUpload", value(init));
    UploadPartResult part = new UploadPartResult();
    part.setPartNumber(1);
    part.setETag("p1");
    s3.on("uploadPart", value(part));
    CompleteMultipartUploadResult done = new CompleteMultipartUploadResult();
    done.setETag("e-1");
    s3.on("completeMultipartUpload", value(done));
    s3.on("abortMultipartUpload", value(null));
    s3.on("listMultipartUploads", value(new MultipartUploadListing()));
    s3.on("listVersions", value(new VersionListing()));
    return s3;
  }

  /** Sends one request of every kind. */
  private static void everyRequest(S3Calls calls) throws Exception {
    EveryRequest.send(calls, WriteCondition.none());
  }

  @Test
  void everyRequestNamesItsOperationAndObject() throws Exception {
    FakeS3 s3 = scripted();
    RequestAttribution attribution = new RequestAttribution(AuditSettings.DEFAULT,
        AuditContext.of(AuditContext.DIRECT).withJob("j1"), SparkStandIns.absent(), "b");
    everyRequest(new V1Calls("b", s3.client(), EncryptionSettings.none(), attribution));
    for (Map.Entry<String, String> e : EXPECTED.entrySet()) {
      List<String> seen = new ArrayList<>();
      for (AmazonWebServiceRequest r : s3.requests(e.getKey(), AmazonWebServiceRequest.class)) {
        String h = r.getCustomRequestHeaders().get(RequestAttribution.HEADER);
        Map<String, String> f = fields(h);
        assertEquals("direct", f.get("co"), h);
        assertEquals("j1", f.get("ji"), h);
        seen.add(f.get("op") + " " + f.get("p1"));
      }
      assertEquals(e.getValue(), String.join("|", seen), e.getKey());
    }
  }

  @Test
  void noHeaderWhenItIsOff() throws Exception {
    FakeS3 s3 = scripted();
    everyRequest(new V1Calls("b", s3.client(), EncryptionSettings.none(), new RequestAttribution(AuditSettings.OFF,
        AuditContext.of(AuditContext.DIRECT), SparkStandIns.absent(), "b")));
    for (String method : EXPECTED.keySet()) {
      List<AmazonWebServiceRequest> requests = s3.requests(method, AmazonWebServiceRequest.class);
      assertTrue(!requests.isEmpty(), method);
      for (AmazonWebServiceRequest r : requests) {
        assertNull(r.getCustomRequestHeaders() == null ? null
            : r.getCustomRequestHeaders().get(RequestAttribution.HEADER), method);
      }
    }
  }

  static Map<String, String> fields(String header) {
    Map<String, String> f = new LinkedHashMap<>();
    for (String part : header.substring(header.indexOf('?') + 1).split("&")) {
      int eq = part.indexOf('=');
      f.put(part.substring(0, eq), URLDecoder.decode(part.substring(eq + 1).replace("+", "%2B"),
          StandardCharsets.UTF_8));
    }
    return f;
  }
}
