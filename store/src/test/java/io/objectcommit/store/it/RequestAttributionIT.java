package io.objectcommit.store.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoreContext;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.audit.AuditContext;
import io.objectcommit.store.audit.ObjectCommitVersion;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import io.objectcommit.testsupport.proxy.S3Operation;
import io.objectcommit.testsupport.proxy.SeenRequest;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.audit.CommonAuditContext;
import org.junit.jupiter.api.Test;

/**
 * The attribution header as the store sees it, through the fault proxy (which keeps each request's
 * {@code Referer}, as a server access log does): every request of every kind names objectcommit's version, the
 * component, the job and the task attempt, the operation the proxy recognised and the object it addressed; the
 * guarantee check's requests say so; no credential is in it; off, nothing is sent. On each SDK binding
 * ({@link RequestAttributionV1IT}, {@link RequestAttributionV2IT}).
 */
@S3IntegrationTest
abstract class RequestAttributionIT {

  private static final String JOB = "3f2a9c1e-5b7d-4e61-9a0b-1c2d3e4f5a6b";
  private static final String ATTEMPT = "attempt_202611250000_0007_m_000003_1";

  /** The binding under test. */
  abstract Sdk sdk();

  /** Our operation names for the proxy's operations (a conditional PUT is {@code op_put_conditional}). */
  private static final Map<S3Operation, Set<String>> OPS = new EnumMap<>(S3Operation.class);

  static {
    OPS.put(S3Operation.PUT, Set.of("op_put", "op_put_conditional"));
    OPS.put(S3Operation.GET, Set.of("op_get"));
    OPS.put(S3Operation.HEAD, Set.of("op_head"));
    OPS.put(S3Operation.BUCKET, Set.of("op_head_bucket"));
    OPS.put(S3Operation.LIST, Set.of("op_list"));
    OPS.put(S3Operation.LIST_VERSIONS, Set.of("op_list_versions"));
    OPS.put(S3Operation.DELETE, Set.of("op_delete"));
    OPS.put(S3Operation.BULK_DELETE, Set.of("op_delete_bulk"));
    OPS.put(S3Operation.MULTIPART_INITIATE, Set.of("op_multipart_initiate"));
    OPS.put(S3Operation.MULTIPART_PART, Set.of("op_multipart_part"));
    OPS.put(S3Operation.MULTIPART_COMPLETE, Set.of("op_multipart_complete"));
    OPS.put(S3Operation.MULTIPART_ABORT, Set.of("op_multipart_abort"));
    OPS.put(S3Operation.MULTIPART_LIST, Set.of("op_multipart_list"));
  }

  private Configuration conf(S3FaultProxy proxy, S3TestBucket bucket) {
    Configuration conf = bucket.hadoopConfiguration();
    proxy.endpoint().s3aOptions().forEach(conf::set);
    return sdk().on(conf);
  }

  /** One request of every kind the store sends, plus (detect mode) the guarantee check of exclusive create. */
  private static void everyKindOfRequest(ObjectStore store, S3TestBucket bucket) throws Exception {
    String dir = bucket.key("attributed/");
    store.createExclusive(dir + "a & b=c.txt", Payload.of(new byte[] {1}));
    store.put(dir + "plain", Payload.of(new byte[] {2}), WriteCondition.none());
    store.getBytes(dir + "plain");
    assertFalse(store.head(dir + "missing").isPresent());
    store.list(dir, "/", null, 1000);
    store.listVersions(dir, null, null, 1000);
    MultipartUpload up = store.initiateMultipartUpload(dir + "mp");
    UploadedPart part = store.uploadPart(up, 1, Payload.of(new byte[] {3}));
    store.completeMultipartUpload(up, List.of(part), WriteCondition.none());
    MultipartUpload aborted = store.initiateMultipartUpload(dir + "mp-aborted");
    store.abortMultipartUpload(aborted);
    store.listMultipartUploads(dir);
    store.delete(dir + "plain");
    store.deleteBatch(List.of(dir + "a & b=c.txt", dir + "mp"));
  }

  @Test
  void everyRequestNamesObjectcommitTheComponentJobAndTaskAttempt(S3TestBucket bucket) throws Exception {
    try (S3FaultProxy proxy = S3FaultProxy.start(bucket.endpoint())) {
      Configuration conf = conf(proxy, bucket);
      AuditContext who = AuditContext.of(AuditContext.DIRECT).withJob(JOB).withTaskAttempt(ATTEMPT);
      try (ObjectStore store = new StoreContext().open(bucket.name(), conf, who)) {
        everyKindOfRequest(store, bucket);
      }
      List<SeenRequest> seen = proxy.requests();
      Set<S3Operation> kinds = new TreeSet<>();
      int checkRequests = 0;
      for (SeenRequest r : seen) {
        String h = r.referrer();
        assertNotNull(h, "every request is attributed: " + r);
        Map<String, String> f = r.referrerParams();
        assertTrue(r.referrerPath().startsWith("/hadoop/1/" + f.get("op") + "/" + f.get("id") + "/"), h);
        assertEquals(ObjectCommitVersion.get(), f.get("oc"), h);
        assertEquals("direct", f.get("co"), h);
        assertEquals(JOB, f.get("ji"), h);
        assertEquals(ATTEMPT, f.get("ta"), h);
        assertEquals(CommonAuditContext.PROCESS_ID, f.get("ps"), "the JVM, as S3A's auditing names it: " + h);
        assertTrue(OPS.getOrDefault(r.operation(), Set.of()).contains(f.get("op")), r + ": " + h);
        if (!r.request().key().isEmpty()) {
          assertEquals("s3a://" + bucket.name() + "/" + r.request().key(), f.get("p1"), h);
        }
        boolean probe = r.request().key().contains(".objectcommit/probe/")
            || r.operation() == S3Operation.BULK_DELETE && f.get("p1").contains(".objectcommit/probe/");
        assertEquals(probe ? "guarantee-check" : null, f.get("ck"), "only the check's requests are marked: " + h);
        checkRequests += probe ? 1 : 0;
        for (String secret : List.of(bucket.endpoint().accessKey(), bucket.endpoint().secretKey())) {
          assertFalse(h.contains(secret), "no credential in the header: " + h);
        }
        kinds.add(r.operation());
      }
      assertEquals(OPS.keySet(), kinds, "every kind of request was sent and checked: " + seen);
      assertTrue(checkRequests >= 4, "the guarantee check of exclusive create ran: " + checkRequests);
    }
  }

  @Test
  void ourSettingOrS3asTurnsItOff(S3TestBucket bucket) throws Exception {
    for (String key : List.of("fs.objectcommit.audit.referrer.enabled", "fs.s3a.audit.referrer.enabled")) {
      try (S3FaultProxy proxy = S3FaultProxy.start(bucket.endpoint())) {
        Configuration conf = conf(proxy, bucket);
        conf.setBoolean(key, false);
        try (ObjectStore store = new StoreContext().open(bucket.name(), conf, AuditContext.of(AuditContext.CLI))) {
          everyKindOfRequest(store, bucket);
        }
        List<SeenRequest> seen = proxy.requests();
        assertTrue(seen.size() > 12, seen.toString());
        assertEquals(List.of(), seen.stream().filter(r -> r.referrer() != null).map(SeenRequest::toString)
            .collect(Collectors.toList()), key + "=false: no request attributed");
      }
    }
  }
}
