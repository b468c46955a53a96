package io.objectcommit.store.impl;

import io.objectcommit.store.Payload;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.WriteCondition;
import java.util.List;

/** One request of every kind {@link S3Calls} sends, for the SDK bindings' tests of what each request carries. */
public final class EveryRequest {

  private EveryRequest() {
  }

  /**
   * Sends, in this order: a PUT of k1, an exclusive PUT of k2, HEAD k3, GET k4, a ranged GET of k5, HeadBucket,
   * DELETE k6, a bulk DELETE of k7 and k8, a LIST of dir/, a multipart upload of k9 (initiate w3, one part, complete
   * under {@code completion}, abort), ListMultipartUploads of up/, ListObjectVersions of v/.
   */
  public static void send(S3Calls calls, WriteCondition completion) throws Exception {
    calls.put("k1", Payload.of(new byte[] {1}), WriteCondition.none(), "w1");
    calls.put("k2", Payload.of(new byte[] {1}), WriteCondition.ifAbsent(), "w2");
    calls.head("k3");
    calls.get("k4", null);
    try (S3Calls.ObjectBody body = calls.getRange("k5", 0, 1, null)) {
      body.content().readAllBytes();
    }
    calls.headBucket();
    calls.delete("k6");
    calls.deleteBatch(List.of("k7", "k8"));
    calls.list("dir/", "/", null, null, 1000);
    String upload = calls.initiateMultipart("k9", "w3");
    calls.uploadPart("k9", upload, 1, Payload.of(new byte[] {1}));
    calls.completeMultipart("k9", upload, List.of(new UploadedPart(1, "p1", 1)), completion);
    calls.abortMultipart("k9", upload);
    calls.listMultipartUploads("up/", null, null);
    calls.listVersions("v/", null, null, 1000);
  }
}
