package io.objectcommit.store.guarantee;

import static io.objectcommit.store.impl.FakeS3.fail;
import static io.objectcommit.store.impl.FakeS3.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.SdkClientException;
import com.amazonaws.services.s3.model.DeleteObjectsResult;
import com.amazonaws.services.s3.model.ObjectMetadata;
import com.amazonaws.services.s3.model.PutObjectResult;
import com.amazonaws.services.s3.model.S3Object;
import io.objectcommit.store.ActionDeniedException;
import io.objectcommit.store.ConditionalWritesUnsupportedException;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoreCapabilities;
import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.impl.FakeS3;
import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.PathIOException;
import org.junit.jupiter.api.Test;

/**
 * The conditional-write check ({@code detect}: the store guarantee check of the guarantee the write needs) reports
 * its first failure, naming the user's operation, the bucket, the endpoint and why; the removal of the check's
 * object never replaces it (the policy around the S3 store on a scripted client, no network). Each test starts with
 * nothing known: its stores share a verdict cache of their own.
 */
class ConditionalWritesProbeTest {

  private static final String WHERE = FakeS3Stores.WHERE;

  private final FakeS3Stores stores = new FakeS3Stores();
  private final FakeS3 s3 = stores.s3;

  private ObjectStore store() {
    return stores.open(GuaranteeSettings.Mode.DETECT);
  }

  /** The GET by which the check sees that a refused exclusive PUT left its first object unchanged. */
  static FakeS3.Answer checkObjectUnchanged() {
    return args -> {
      S3Object o = new S3Object();
      o.setObjectContent(new ByteArrayInputStream(
          "objectcommit store guarantee check: first".getBytes(StandardCharsets.UTF_8)));
      ObjectMetadata md = new ObjectMetadata();
      md.setHeader("ETag", "e");
      o.setObjectMetadata(md);
      return o;
    };
  }

  private static void assertNamesOperationAndStore(IOException e, String why) {
    String m = e.getMessage();
    assertTrue(m.contains("createExclusive s3://test-bucket/dir/k"), "the user's operation: " + m);
    assertTrue(m.contains("bucket 'test-bucket'") && m.contains("http://fake.invalid:1"), "bucket, endpoint: " + m);
    assertTrue(m.contains(why), "why: " + m);
    assertFalse(m.contains("op_delete"), "not the cleanup's failure: " + m);
  }

  @Test
  void aMissingBucketIsReportedAsSuchAndNothingIsLeftToCleanUp() {
    s3.on("putObject", fail(404, "NoSuchBucket"));
    s3.on("deleteObjects", fail(404, "NoSuchBucket"));
    FileNotFoundException e = assertThrows(FileNotFoundException.class,
        () -> store().createExclusive("dir/k", Payload.of(new byte[1])));
    assertNamesOperationAndStore(e, "the bucket does not exist");
    assertTrue(e.getCause() instanceof FileNotFoundException, "the first failure is the cause");
    assertEquals(1, s3.count("putObject"));
    assertEquals(0, s3.count("deleteObjects"), "no probe object was written: no delete");
  }

  @Test
  void refusedCredentialsAreReportedAs403() {
    s3.on("putObject", fail(403, "InvalidAccessKeyId"));
    s3.on("deleteObjects", fail(403, "InvalidAccessKeyId"));
    AccessDeniedException e = assertThrows(AccessDeniedException.class,
        () -> store().createExclusive("dir/k", Payload.of(new byte[1])));
    assertNamesOperationAndStore(e, "access was refused (403)");
    assertEquals(0, s3.count("deleteObjects"));
  }

  @Test
  void aRefusedActionIsReportedWithItsKeyAndActionNotAsRefusedCredentials() {
    s3.on("putObject", fail(403, "AccessDenied"));
    ActionDeniedException e = assertThrows(ActionDeniedException.class,
        () -> store().createExclusive("dir/k", Payload.of(new byte[1])));
    assertNamesOperationAndStore(e, "s3:PutObject on test-bucket/dir/.objectcommit/probe/check-");
    assertEquals("s3:PutObject", e.action());
    assertTrue(e.key().startsWith("dir/.objectcommit/probe/check-") && e.key().endsWith("/inm-put"), e.key());
    assertTrue(e.getMessage().contains("where a conditional write is about to write"), e.getMessage());
    assertFalse(e.getMessage().contains("check the credentials"), e.getMessage());
    assertTrue(e.getCause() instanceof ActionDeniedException, "the request's own refusal is the cause");
    assertEquals(0, s3.count("deleteObjects"), "nothing was written: nothing to delete");
  }

  @Test
  void aRefusedConnectionIsReportedAsSuch() {
    s3.on("putObject", fail(new SdkClientException("connect", new ConnectException("Connection refused"))));
    s3.on("deleteObjects", fail(new SdkClientException("connect", new ConnectException("Connection refused"))));
    PathIOException e = assertThrows(PathIOException.class,
        () -> store().createExclusive("dir/k", Payload.of(new byte[1])));
    assertNamesOperationAndStore(e, "the endpoint refused the connection");
    assertEquals(3, s3.count("putObject"), "first attempt and the connect retries");
    assertEquals(0, s3.count("deleteObjects"));
  }

  @Test
  void aFailedCleanupAfterAnAmbiguousFailureIsSuppressedNotReported() {
    s3.on("putObject", fail(500, "InternalError"));
    s3.on("deleteObjects", fail(403, "AccessDenied"));
    PathIOException e = assertThrows(PathIOException.class,
        () -> store().createExclusive("dir/k", Payload.of(new byte[1])));
    assertNamesOperationAndStore(e, "op_put_conditional");
    assertEquals(1, s3.count("deleteObjects"), "the probe may have been written: removed");
    assertEquals(1, e.getSuppressed().length);
    assertTrue(e.getSuppressed()[0] instanceof AccessDeniedException);
    assertTrue(e.getSuppressed()[0].getMessage().contains("op_delete_bulk"), e.getSuppressed()[0].getMessage());
  }

  @Test
  void aFailureOfTheCheckIsNotCachedAndIsRetriedByTheNextOperation() throws Exception {
    s3.on("putObject", fail(404, "NoSuchBucket"));
    assertThrows(FileNotFoundException.class, () -> store().createExclusive("dir/k", Payload.of(new byte[1])));
    PutObjectResult ok = new PutObjectResult();
    ok.setETag("e");
    s3.replace("putObject", value(ok), fail(412, "PreconditionFailed"), value(ok));
    s3.on("getObject", checkObjectUnchanged());
    s3.on("deleteObjects", value(new DeleteObjectsResult(List.of())));
    store().createExclusive("dir/k", Payload.of(new byte[1]));
    assertEquals(StoreCapabilities.ConditionalWrites.VERIFIED, store().capabilities().conditionalWrites());
  }

  @Test
  void aVerifiedStoreWhoseProbeCannotBeDeletedStillWorks() throws Exception {
    PutObjectResult ok = new PutObjectResult();
    ok.setETag("e");
    s3.on("putObject", value(ok), fail(412, "PreconditionFailed"), value(ok));
    s3.on("getObject", checkObjectUnchanged());
    s3.on("deleteObjects", fail(403, "AccessDenied"));
    assertEquals("e", store().createExclusive("dir/k", Payload.of(new byte[1])).etag());
  }

  @Test
  void capabilityQueriesNameTheirOperation() {
    s3.on("putObject", fail(404, "NoSuchBucket"));
    FileNotFoundException e = assertThrows(FileNotFoundException.class,
        () -> store().capabilities("initialize ckpt://test-bucket/"));
    assertTrue(e.getMessage().startsWith("initialize ckpt://test-bucket/: "), e.getMessage());
  }

  @Test
  void theRefusalIsCachedAndCarriesStoreBucketAndSetting() {
    PutObjectResult ok = new PutObjectResult();
    ok.setETag("e");
    s3.on("putObject", value(ok));
    s3.on("deleteObjects", value(new DeleteObjectsResult(List.of())));
    ConditionalWritesUnsupportedException first = assertThrows(ConditionalWritesUnsupportedException.class,
        () -> store().createExclusive("k", Payload.of(new byte[1])));
    assertEquals(WHERE, first.store());
    assertEquals("test-bucket", first.bucket());
    assertEquals(StoreConstants.CONDITIONAL_WRITES, first.setting());
    assertTrue(first instanceof StoreGuaranteeException, "the guarantee check's refusal");
    assertEquals(Set.of(StoreGuarantee.IF_NONE_MATCH_PUT), ((StoreGuaranteeException) first).failedGuarantees());
    assertTrue(first.getMessage().contains("IF_NONE_MATCH_PUT") && first.getMessage().contains(WHERE)
        && first.getMessage().contains(StoreConstants.CONDITIONAL_WRITES + "=emulate"), first.getMessage());
    ConditionalWritesUnsupportedException again = assertThrows(ConditionalWritesUnsupportedException.class,
        () -> store().createExclusive("k", Payload.of(new byte[1])));
    assertNotSame(first, again, "a new instance per call");
    assertEquals(first.getMessage(), again.getMessage());
    assertEquals(first.store(), again.store());
    assertEquals(2, s3.count("putObject"), "no request after the cached refusal");
    assertEquals(1, s3.count("deleteObjects"), "the check's object removed");
    assertSame(null, again.getCause());
  }
}
