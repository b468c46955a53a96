package io.objectcommit.store.impl;

import static io.objectcommit.store.impl.FakeS3.fail;
import static io.objectcommit.store.impl.FakeS3.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.SdkClientException;
import com.amazonaws.services.s3.model.CompleteMultipartUploadRequest;
import com.amazonaws.services.s3.model.CompleteMultipartUploadResult;
import com.amazonaws.services.s3.model.DeleteObjectsRequest;
import com.amazonaws.services.s3.model.DeleteObjectsResult;
import com.amazonaws.services.s3.model.HeadBucketResult;
import com.amazonaws.services.s3.model.InitiateMultipartUploadResult;
import com.amazonaws.services.s3.model.ListVersionsRequest;
import com.amazonaws.services.s3.model.MultiObjectDeleteException;
import com.amazonaws.services.s3.model.ObjectMetadata;
import com.amazonaws.services.s3.model.PutObjectRequest;
import com.amazonaws.services.s3.model.PutObjectResult;
import com.amazonaws.services.s3.model.S3VersionSummary;
import com.amazonaws.services.s3.model.UploadPartRequest;
import com.amazonaws.services.s3.model.UploadPartResult;
import com.amazonaws.services.s3.model.VersionListing;
import io.objectcommit.store.ActionDeniedException;
import io.objectcommit.store.Listings;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectVersion;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoreCapabilities;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.impl.client.EncryptionSettings;
import io.objectcommit.store.impl.v1.V1Calls;
import io.objectcommit.store.statistics.StoreStatisticNames;
import io.objectcommit.store.statistics.StoreStatistics;
import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.nio.file.AccessDeniedException;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.PathIOException;
import org.junit.jupiter.api.Test;

/** The store's retry, error and conditional-write logic against a scripted S3 client (no network). */
class S3ObjectStoreTest {

  private static final String WHERE = "bucket 'test-bucket' at endpoint http://fake.invalid:1 (region us-east-1)";
  private static final int MIB = 1024 * 1024;

  private final FakeS3 s3 = new FakeS3();
  private final List<Long> sleeps = new ArrayList<>();

  private S3ObjectStore store() {
    StoreOptions o = new StoreOptions(new RetryPolicy(3, 5, 2, 100, 1_000), 5 * MIB, 5 * MIB);
    return new S3ObjectStore("test-bucket", new V1Calls("test-bucket", s3.client(), EncryptionSettings.none()), o,
        WHERE, () -> { }, sleeps::add);
  }

  private static PutObjectResult putResult(String etag) {
    PutObjectResult r = new PutObjectResult();
    r.setETag(etag);
    return r;
  }

  private static ObjectMetadata metadata(String etag, String writeId) {
    ObjectMetadata md = new ObjectMetadata();
    md.setHeader("ETag", etag);
    md.setContentLength(3);
    if (writeId != null) {
      md.addUserMetadata(S3Calls.WRITE_ID, writeId);
    }
    return md;
  }

  private String writeIdOfPut(int index) {
    return s3.requests("putObject", PutObjectRequest.class).get(index).getMetadata()
        .getUserMetaDataOf(S3Calls.WRITE_ID);
  }

  @Test
  void throttlingIsRetriedWithCappedBackoffAndCounted() throws Exception {
    s3.on("putObject", fail(503, "SlowDown"), fail(503, "SlowDown"), value(putResult("e1")));
    S3ObjectStore store = store();
    ObjectInfo info = store.put("k", Payload.of(new byte[] {1, 2, 3}), WriteCondition.none());
    assertEquals("e1", info.etag());
    assertEquals(3, info.size());
    assertEquals(3, s3.count("putObject"));
    assertEquals(2, sleeps.size());
    assertTrue(sleeps.get(0) <= 100 && sleeps.get(1) <= 200, "full jitter under the cap: " + sleeps);
    StoreStatistics.Snapshot.OpValues put = store.statistics().snapshot().get(StoreStatisticNames.OP_PUT);
    assertEquals(3, put.count);
    assertEquals(2, put.failures);
    assertEquals(2, put.retries);
    assertEquals(3, put.bytes);
  }

  @Test
  void refusedCredentialsFailAtOnceNamingBucketAndEndpoint() {
    s3.on("putObject", fail(403, "InvalidAccessKeyId"));
    AccessDeniedException e = assertThrows(AccessDeniedException.class,
        () -> store().put("k", Payload.of(new byte[1]), WriteCondition.none()));
    assertEquals(1, s3.count("putObject"));
    assertTrue(sleeps.isEmpty());
    assertTrue(e.getMessage().contains("test-bucket") && e.getMessage().contains("http://fake.invalid:1"),
        e.getMessage());
    assertTrue(e.getMessage().contains("fs.s3a.access.key"), e.getMessage());
  }

  @Test
  void serverErrorsAreRetriedUpToTheLimit() {
    s3.on("putObject", fail(500, "InternalError"));
    S3ObjectStore store = store();
    PathIOException e = assertThrows(PathIOException.class,
        () -> store.put("k", Payload.of(new byte[1]), WriteCondition.none()));
    assertEquals(4, s3.count("putObject"), "first attempt and 3 retries");
    assertTrue(e.getMessage().contains("after 4 attempts"), e.getMessage());
    assertEquals(3, store.statistics().snapshot().get(StoreStatisticNames.OP_PUT).retries);
    assertEquals(4, store.statistics().snapshot().get(StoreStatisticNames.OP_PUT).failures);
  }

  @Test
  void unreachableEndpointFailsAfterTheConnectLimit() {
    s3.on("getObjectMetadata", fail(new SdkClientException("connect", new ConnectException("Connection refused"))));
    PathIOException e = assertThrows(PathIOException.class, () -> store().head("k"));
    assertEquals(3, s3.count("getObjectMetadata"), "first attempt and 2 connect retries");
    assertTrue(e.getMessage().contains("cannot connect") && e.getMessage().contains("test-bucket"), e.getMessage());
  }

  @Test
  void otherClientErrorsAreNotRetried() {
    s3.on("putObject", fail(400, "InvalidArgument"));
    assertThrows(PathIOException.class, () -> store().put("k", Payload.of(new byte[1]), WriteCondition.none()));
    assertEquals(1, s3.count("putObject"));
  }

  @Test
  void exclusiveCreateSendsIfNoneMatchAndARefusalIsFileAlreadyExists() {
    s3.on("putObject", fail(412, "PreconditionFailed"));
    FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class,
        () -> store().createExclusive("dir/k", Payload.of(new byte[1])));
    assertTrue(e.getMessage().contains("s3://test-bucket/dir/k"), e.getMessage());
    assertEquals("*", s3.requests("putObject", PutObjectRequest.class).get(0).getCustomRequestHeaders()
        .get("If-None-Match"));
    assertEquals(0, s3.count("getObjectMetadata"), "a refusal on the first attempt needs no HEAD");
  }

  @Test
  void aRetriedExclusiveCreateThatMeetsItsOwnWriteSucceeds() throws Exception {
    s3.on("putObject", fail(500, "InternalError"), fail(412, "PreconditionFailed"));
    s3.on("getObjectMetadata", args -> metadata("\"e-own\"", writeIdOfPut(0)));
    ObjectInfo info = store().createExclusive("k", Payload.of(new byte[] {1, 2, 3}));
    assertEquals("e-own", info.etag());
    assertEquals(writeIdOfPut(0), writeIdOfPut(1), "retries carry the same write id");
  }

  @Test
  void aRetriedExclusiveCreateThatMeetsAnotherWriterFails() {
    s3.on("putObject", fail(500, "InternalError"), fail(412, "PreconditionFailed"));
    s3.on("getObjectMetadata", value(metadata("\"e-other\"", "someone-else")));
    assertThrows(FileAlreadyExistsException.class, () -> store().createExclusive("k", Payload.of(new byte[1])));
  }

  @Test
  void compareAndSwapWithAStaleEtagIsObjectChanged() {
    s3.on("putObject", fail(412, "PreconditionFailed"));
    ObjectChangedException e = assertThrows(ObjectChangedException.class,
        () -> store().replaceIfMatch("k", Payload.of(new byte[1]), "\"stale\""));
    assertEquals("stale", e.expectedEtag());
    assertEquals("\"stale\"", s3.requests("putObject", PutObjectRequest.class).get(0).getCustomRequestHeaders()
        .get("If-Match"));
  }

  @Test
  void compareAndSwapOfAVanishedObjectIsFileNotFound() {
    s3.on("putObject", fail(404, "NoSuchKey"));
    assertThrows(FileNotFoundException.class, () -> store().replaceIfMatch("k", Payload.of(new byte[1]), "e"));
  }

  @Test
  void compareAndSwapInAMissingBucketSaysSo() {
    s3.on("putObject", fail(404, "NoSuchBucket"));
    FileNotFoundException e = assertThrows(FileNotFoundException.class,
        () -> store().replaceIfMatch("k", Payload.of(new byte[1]), "e"));
    assertTrue(e.getMessage().contains("no such bucket"), e.getMessage());
  }

  @Test
  void headOfAMissingObjectIsEmptyAndTheBucketIsCheckedOnce() throws Exception {
    s3.on("getObjectMetadata", fail(404, "404 Not Found"));
    s3.on("headBucket", value(new HeadBucketResult()));
    S3ObjectStore store = store();
    assertTrue(store.head("a").isEmpty());
    assertTrue(store.head("b").isEmpty());
    assertEquals(1, s3.count("headBucket"));
  }

  @Test
  void headInAMissingBucketIsAnError() {
    s3.on("getObjectMetadata", fail(404, "404 Not Found"));
    s3.on("headBucket", fail(404, "404 Not Found"));
    FileNotFoundException e = assertThrows(FileNotFoundException.class, () -> store().head("a"));
    assertTrue(e.getMessage().contains("no such bucket") && e.getMessage().contains("http://fake.invalid:1"),
        e.getMessage());
  }

  @Test
  void batchDeleteSendsAThousandKeysPerRequest() throws Exception {
    s3.on("deleteObjects", value(new DeleteObjectsResult(List.of())));
    List<String> keys = IntStream.range(0, 2500).mapToObj(i -> "k" + i).collect(Collectors.toList());
    assertEquals(2500, store().deleteBatch(keys));
    List<Integer> sizes = s3.requests("deleteObjects", DeleteObjectsRequest.class).stream()
        .map(r -> r.getKeys().size()).collect(Collectors.toList());
    assertEquals(List.of(1000, 1000, 500), sizes);
  }

  @Test
  void batchDeleteNamesRefusedKeysAndStops() {
    MultiObjectDeleteException.DeleteError err = new MultiObjectDeleteException.DeleteError();
    err.setKey("k7");
    err.setCode("AccessDenied");
    s3.on("deleteObjects", fail(new MultiObjectDeleteException(List.of(err), List.of())));
    List<String> keys = IntStream.range(0, 1500).mapToObj(i -> "k" + i).collect(Collectors.toList());
    PathIOException e = assertThrows(PathIOException.class, () -> store().deleteBatch(keys));
    assertTrue(e.getMessage().contains("k7 (AccessDenied)"), e.getMessage());
    assertEquals(1, s3.count("deleteObjects"), "no later batch after a refusal");
  }

  private void scriptMultipart() {
    InitiateMultipartUploadResult init = new InitiateMultipartUploadResult();
    init.setUploadId("u1");
    s3.on("initiateMultipartUpload", value(init));
    s3.on("uploadPart", args -> {
      UploadPartRequest r = (UploadPartRequest) args[0];
      UploadPartResult res = new UploadPartResult();
      res.setPartNumber(r.getPartNumber());
      res.setETag(String.format("%032x", r.getPartNumber()));
      return res;
    });
    CompleteMultipartUploadResult done = new CompleteMultipartUploadResult();
    done.setETag("\"mp-etag\"");
    s3.on("completeMultipartUpload", value(done));
  }

  @Test
  void largePayloadsGoMultipartInPartsOfTheConfiguredSize() throws Exception {
    scriptMultipart();
    ObjectInfo info = store().put("big", Payload.of(new byte[11 * MIB]), WriteCondition.ifAbsent());
    assertEquals("mp-etag", info.etag());
    assertEquals(11 * MIB, info.size());
    List<Long> parts = s3.requests("uploadPart", UploadPartRequest.class).stream().map(UploadPartRequest::getPartSize)
        .collect(Collectors.toList());
    assertEquals(List.of(5L * MIB, 5L * MIB, 1L * MIB), parts);
    CompleteMultipartUploadRequest c = s3.requests("completeMultipartUpload", CompleteMultipartUploadRequest.class)
        .get(0);
    assertEquals("*", c.getCustomRequestHeaders().get("If-None-Match"));
    assertEquals(0, s3.count("putObject"));
  }

  @Test
  void aStreamOfUnknownLengthIsUploadedOnePartAtATime() throws Exception {
    scriptMultipart();
    store().put("s", Payload.of(new ByteArrayInputStream(new byte[12 * MIB]), -1), WriteCondition.none());
    List<Long> parts = s3.requests("uploadPart", UploadPartRequest.class).stream().map(UploadPartRequest::getPartSize)
        .collect(Collectors.toList());
    assertEquals(List.of(5L * MIB, 5L * MIB, 2L * MIB), parts);
  }

  @Test
  void aShortStreamIsOneRepeatablePut() throws Exception {
    s3.on("putObject", fail(500, "InternalError"), value(putResult("e")));
    store().put("s", Payload.of(new ByteArrayInputStream(new byte[1000]), -1), WriteCondition.none());
    assertEquals(2, s3.count("putObject"), "retried: the stream was buffered");
    assertEquals(0, s3.count("initiateMultipartUpload"));
  }

  @Test
  void aFailedPartAbortsTheUpload() {
    scriptMultipart();
    s3.on("uploadPart", fail(403, "AccessDenied"));
    s3.on("abortMultipartUpload", value(null));
    assertThrows(AccessDeniedException.class,
        () -> store().put("big", Payload.of(new byte[6 * MIB]), WriteCondition.none()));
    assertEquals(1, s3.count("abortMultipartUpload"));
    assertEquals(0, s3.count("completeMultipartUpload"));
  }

  @Test
  void aRetriedCompletionThatFindsTheUploadDoneByItselfSucceeds() throws Exception {
    List<UploadedPart> parts = List.of(new UploadedPart(1, String.format("%032x", 1), 5 * MIB),
        new UploadedPart(2, String.format("%032x", 2), 10));
    s3.on("completeMultipartUpload", fail(500, "InternalError"), fail(404, "NoSuchUpload"));
    s3.on("getObjectMetadata", value(metadata("\"" + MultipartEtag.of(parts) + "\"", null)));
    ObjectInfo info = store().completeMultipartUpload(new MultipartUpload("k", "u1", 0), parts,
        WriteCondition.ifAbsent());
    assertEquals(MultipartEtag.of(parts), info.etag());
  }

  @Test
  void aCompletionRefusedOnTheFirstAttemptLeavesTheUploadToTheCaller() {
    s3.on("completeMultipartUpload", fail(412, "PreconditionFailed"));
    assertThrows(FileAlreadyExistsException.class, () -> store().completeMultipartUpload(
        new MultipartUpload("k", "u1", 0), List.of(new UploadedPart(1, "e", 1)),
        WriteCondition.ifAbsent()));
    assertEquals(0, s3.count("abortMultipartUpload"));
  }

  @Test
  void conditionsAreSentAsGivenAndTrusted() throws Exception {
    s3.on("putObject", value(putResult("e")));
    S3ObjectStore store = store();
    assertEquals(StoreCapabilities.ConditionalWrites.ASSUMED, store.capabilities().conditionalWrites());
    store.createExclusive("k", Payload.of(new byte[1]));
    assertEquals(1, s3.count("putObject"), "the write itself, no check");
    assertEquals("*", s3.requests("putObject", PutObjectRequest.class).get(0).getCustomRequestHeaders()
        .get("If-None-Match"));
  }

  @Test
  void anInterruptDuringBackoffStopsTheRetries() {
    s3.on("putObject", fail(503, "SlowDown"));
    StoreOptions o = new StoreOptions(new RetryPolicy(3, 5, 2, 100, 1_000), 5 * MIB, 5 * MIB);
    S3ObjectStore store = new S3ObjectStore("test-bucket", new V1Calls("test-bucket", s3.client(), EncryptionSettings.none()), o, WHERE, () -> { },
        ms -> {
          throw new InterruptedException();
        });
    assertThrows(InterruptedIOException.class, () -> store.put("k", Payload.of(new byte[1]), WriteCondition.none()));
    assertEquals(1, s3.count("putObject"));
    assertTrue(Thread.interrupted(), "the interrupt is kept");
  }

  @Test
  void statisticsAreExposedAsHadoopIoStatistics() throws Exception {
    s3.on("putObject", fail(503, "SlowDown"), value(putResult("e")));
    S3ObjectStore store = store();
    store.put("k", Payload.of(new byte[5]), WriteCondition.none());
    var io = store.getIOStatistics();
    assertEquals(2L, io.counters().get("op_put"));
    assertEquals(1L, io.counters().get("op_put.failures"));
    assertEquals(1L, io.counters().get("op_put.retries"));
    assertEquals(5L, io.counters().get("op_put.bytes"));
    assertTrue(io.maximums().containsKey("op_put.max"));
    assertEquals(2L, io.meanStatistics().get("op_put.mean").getSamples());
  }

  @Test
  void aClosedStoreRefusesWork() throws Exception {
    S3ObjectStore store = store();
    store.close();
    store.close();
    assertThrows(IOException.class, () -> store.head("k"));
  }

  private static S3VersionSummary version(String key, String id, boolean latest, boolean marker, long size) {
    S3VersionSummary v = new S3VersionSummary();
    v.setKey(key);
    v.setVersionId(id);
    v.setIsLatest(latest);
    v.setIsDeleteMarker(marker);
    v.setSize(size);
    v.setLastModified(new Date(1_000));
    return v;
  }

  @Test
  void versionsAreListedPageByPageFromTheMarkersAndCounted() throws Exception {
    VersionListing first = new VersionListing();
    // as LocalStack sends them: a page's delete markers after (or before) its versions, not in key order
    first.setVersionSummaries(List.of(version("d/a", "v1", false, false, 7), version("d/a", "v2", true, true, 0)));
    first.setTruncated(true);
    first.setNextKeyMarker("d/a");
    first.setNextVersionIdMarker("v1");
    VersionListing last = new VersionListing();
    last.setVersionSummaries(List.of(version("d/b", "null", true, false, 3)));
    s3.on("listVersions", value(first), value(last));
    S3ObjectStore store = store();
    List<ObjectVersion> all = Listings.versions(store, "d/");
    assertEquals(List.of(new ObjectVersion("d/a", "v2", true, true, 0, 1_000),
        new ObjectVersion("d/a", "v1", false, false, 7, 1_000), new ObjectVersion("d/b", "null", true, false, 3, 1_000)),
        all);
    assertTrue(all.get(1).isNoncurrent() && !all.get(0).isNoncurrent() && !all.get(2).isNoncurrent());
    List<ListVersionsRequest> sent = s3.requests("listVersions", ListVersionsRequest.class);
    assertEquals(2, sent.size());
    assertEquals("d/", sent.get(0).getPrefix());
    assertEquals(null, sent.get(0).getKeyMarker());
    assertEquals(1000, sent.get(0).getMaxResults());
    assertEquals("d/a", sent.get(1).getKeyMarker());
    assertEquals("v1", sent.get(1).getVersionIdMarker());
    assertEquals(2, store.statistics().snapshot().get(StoreStatisticNames.OP_LIST_VERSIONS).count);
    assertEquals(0, store.statistics().snapshot().get(StoreStatisticNames.OP_LIST).count);
  }

  @Test
  void aRefusedVersionListingNamesListBucketVersions() {
    s3.on("listVersions", fail(403, "AccessDenied"));
    ActionDeniedException e = assertThrows(ActionDeniedException.class,
        () -> store().listVersions("ckpt/", null, null, 1000));
    assertTrue(e.getMessage().contains("s3:ListBucketVersions"), e.getMessage());
  }
}
