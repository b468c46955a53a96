package io.objectcommit.testsupport.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.amazonaws.ClientConfiguration;
import com.amazonaws.SdkClientException;
import com.amazonaws.auth.AWSStaticCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.client.builder.AwsClientBuilder;
import com.amazonaws.services.s3.AmazonS3;
import com.amazonaws.services.s3.AmazonS3ClientBuilder;
import com.amazonaws.services.s3.model.AbortMultipartUploadRequest;
import com.amazonaws.services.s3.model.AmazonS3Exception;
import com.amazonaws.services.s3.model.CompleteMultipartUploadRequest;
import com.amazonaws.services.s3.model.DeleteObjectsRequest;
import com.amazonaws.services.s3.model.GetObjectRequest;
import com.amazonaws.services.s3.model.InitiateMultipartUploadRequest;
import com.amazonaws.services.s3.model.ListObjectsRequest;
import com.amazonaws.services.s3.model.ListObjectsV2Request;
import com.amazonaws.services.s3.model.ListObjectsV2Result;
import com.amazonaws.services.s3.model.ListPartsRequest;
import com.amazonaws.services.s3.model.ObjectMetadata;
import com.amazonaws.services.s3.model.PartETag;
import com.amazonaws.services.s3.model.PutObjectRequest;
import com.amazonaws.services.s3.model.S3Object;
import com.amazonaws.services.s3.model.S3ObjectSummary;
import com.amazonaws.services.s3.model.UploadPartRequest;
import com.amazonaws.util.IOUtils;
import io.objectcommit.testsupport.S3Endpoint;
import io.objectcommit.testsupport.S3Endpoints;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3Store;
import io.objectcommit.testsupport.S3TestBucket;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy in front of LocalStack, driven by AWS SDK v1 clients: faithful forwarding, each fault, counting. */
@S3IntegrationTest
class S3FaultProxyIT {

  private final AtomicLong clock = new AtomicLong(1_000_000);
  private S3FaultProxy proxy;
  private AmazonS3 s3;
  private String bucket;

  @BeforeEach
  void start(S3TestBucket testBucket) {
    proxy = S3FaultProxy.start(testBucket.endpoint(), clock::get);
    s3 = client(proxy.endpoint(), 0);
    bucket = testBucket.name();
  }

  @AfterEach
  void stop() {
    s3.shutdown();
    proxy.close();
  }

  /** A client through the proxy with {@code retries} retries (0: every injected error surfaces). */
  private static AmazonS3 client(S3Endpoint e, int retries) {
    return AmazonS3ClientBuilder.standard()
        .withEndpointConfiguration(new AwsClientBuilder.EndpointConfiguration(e.uri().toString(), e.region()))
        .withCredentials(new AWSStaticCredentialsProvider(new BasicAWSCredentials(e.accessKey(), e.secretKey())))
        .withPathStyleAccessEnabled(true)
        .withClientConfiguration(new ClientConfiguration().withMaxErrorRetry(retries).withSocketTimeout(30_000))
        .build();
  }

  private List<String> listV2(String prefix) {
    return s3.listObjectsV2(bucket, prefix).getObjectSummaries().stream().map(S3ObjectSummary::getKey)
        .collect(Collectors.toList());
  }

  private void put(String key, String content) {
    s3.putObject(bucket, key, content);
  }

  @Test
  void forwardsEveryKindOfRequestAndCountsThem() throws IOException {
    byte[] big = new byte[6 * 1024 * 1024];
    new Random(7).nextBytes(big);
    ObjectMetadata md = new ObjectMetadata();
    md.setContentLength(big.length);
    s3.putObject(bucket, "dir/big.bin", new ByteArrayInputStream(big), md);
    put("dir/a.txt", "hello");
    assertEquals("hello", s3.getObjectAsString(bucket, "dir/a.txt"));
    try (S3Object ranged = s3.getObject(new GetObjectRequest(bucket, "dir/big.bin").withRange(1000, 1999))) {
      byte[] got = IOUtils.toByteArray(ranged.getObjectContent());
      assertArrayEquals(Arrays.copyOfRange(big, 1000, 2000), got);
    }
    assertEquals(big.length, s3.getObjectMetadata(bucket, "dir/big.bin").getContentLength());
    s3.copyObject(bucket, "dir/a.txt", bucket, "dir/b.txt");
    assertEquals(List.of("dir/a.txt", "dir/b.txt", "dir/big.bin"), listV2("dir/"));
    assertEquals(3, s3.listObjects(new ListObjectsRequest().withBucketName(bucket).withPrefix("dir/"))
        .getObjectSummaries().size());

    String uploadId = s3.initiateMultipartUpload(new InitiateMultipartUploadRequest(bucket, "mp.bin"))
        .getUploadId();
    List<PartETag> parts = new ArrayList<>();
    for (int i = 1; i <= 2; i++) {
      byte[] part = Arrays.copyOfRange(big, (i - 1) * 5 * 1024 * 1024, i == 1 ? 5 * 1024 * 1024 : big.length);
      parts.add(s3.uploadPart(new UploadPartRequest().withBucketName(bucket).withKey("mp.bin")
          .withUploadId(uploadId).withPartNumber(i).withInputStream(new ByteArrayInputStream(part))
          .withPartSize(part.length)).getPartETag());
    }
    s3.listParts(new ListPartsRequest(bucket, "mp.bin", uploadId));
    s3.completeMultipartUpload(new CompleteMultipartUploadRequest(bucket, "mp.bin", uploadId, parts));
    String aborted = s3.initiateMultipartUpload(new InitiateMultipartUploadRequest(bucket, "ab.bin")).getUploadId();
    s3.abortMultipartUpload(new AbortMultipartUploadRequest(bucket, "ab.bin",
        aborted));
    try (S3Object whole = s3.getObject(bucket, "mp.bin")) {
      assertArrayEquals(big, IOUtils.toByteArray(whole.getObjectContent()));
    }
    s3.deleteObject(bucket, "dir/b.txt");
    s3.deleteObjects(new DeleteObjectsRequest(bucket).withKeys("dir/a.txt", "nothing-here"));
    assertEquals(List.of("dir/big.bin", "mp.bin"), listV2(""));

    RequestCounts c = proxy.counts();
    assertEquals(2, c.of(S3Operation.PUT, 200), c.toString());
    assertEquals(3, c.of(S3Operation.GET, 200) + c.of(S3Operation.GET, 206), c.toString());
    assertEquals(1, c.of(S3Operation.HEAD, 200), c.toString());
    assertEquals(1, c.of(S3Operation.COPY, 200), c.toString());
    assertEquals(3, c.of(S3Operation.LIST, 200), c.toString());
    assertEquals(2, c.of(S3Operation.MULTIPART_INITIATE), c.toString());
    assertEquals(2, c.of(S3Operation.MULTIPART_PART), c.toString());
    assertEquals(1, c.of(S3Operation.MULTIPART_LIST), c.toString());
    assertEquals(1, c.of(S3Operation.MULTIPART_COMPLETE), c.toString());
    assertEquals(1, c.of(S3Operation.MULTIPART_ABORT), c.toString());
    assertEquals(1, c.of(S3Operation.DELETE), c.toString());
    assertEquals(1, c.of(S3Operation.BULK_DELETE), c.toString());
    assertEquals(19, c.total(), c.toString());
    assertEquals(19, proxy.requests().size(), "every request kept: " + proxy.requests());
    for (S3Operation op : S3Operation.values()) {
      assertEquals(c.of(op), proxy.requests().stream().filter(r -> r.operation() == op).count(), op.name());
    }
    proxy.resetCounts();
    assertEquals(0, proxy.counts().total());
    assertEquals(List.of(), proxy.requests());
  }

  private PutObjectRequest exclusivePut(String key, String content) {
    PutObjectRequest req = new PutObjectRequest(bucket, key,
        new ByteArrayInputStream(content.getBytes(StandardCharsets.UTF_8)), new ObjectMetadata());
    req.putCustomRequestHeader("If-None-Match", "*");
    return req;
  }

  @Test
  void bandwidthHoldsEachConnectionToItsRateAndTheBytesAreCounted() throws IOException {
    byte[] big = new byte[1 << 20];
    new Random(7).nextBytes(big);
    ObjectMetadata md = new ObjectMetadata();
    md.setContentLength(big.length);
    s3.putObject(bucket, "paced.bin", new ByteArrayInputStream(big), md);
    proxy.resetBytes();
    long unlimitedStart = System.nanoTime();
    try (S3Object o = s3.getObject(bucket, "paced.bin")) {
      assertArrayEquals(big, IOUtils.toByteArray(o.getObjectContent()));
    }
    long unlimitedNanos = System.nanoTime() - unlimitedStart;
    long sent = proxy.bytesToClients();
    assertTrue(sent >= big.length && sent < big.length + 4096, "bytes to the client: " + sent);

    proxy.setFaults(FaultPlan.builder(1).bandwidthPerConnection(4L << 20).build());
    proxy.resetBytes();
    long start = System.nanoTime();
    try (S3Object o = s3.getObject(bucket, "paced.bin")) {
      assertArrayEquals(big, IOUtils.toByteArray(o.getObjectContent()));
    }
    long pacedMillis = (System.nanoTime() - start) / 1_000_000;
    // 1 MiB at 4 MiB/s cannot arrive in less than 250 ms, however idle the machine.
    assertTrue(pacedMillis >= 240, "1 MiB at 4 MiB/s took " + pacedMillis + " ms (unpaced: "
        + unlimitedNanos / 1_000_000 + " ms)");
    assertTrue(proxy.bytesToClients() >= big.length, "bytes: " + proxy.bytesToClients());

    proxy.resetBytes();
    long putStart = System.nanoTime();
    s3.putObject(bucket, "paced-up.bin", new ByteArrayInputStream(big), md);
    long putMillis = (System.nanoTime() - putStart) / 1_000_000;
    assertTrue(putMillis >= 240, "an upload of 1 MiB at 4 MiB/s took " + putMillis + " ms");
    assertTrue(proxy.bytesFromClients() >= big.length, "bytes from the client: " + proxy.bytesFromClients());
  }

  /** A store that ignores conditional PUTs: the proxy drops If-None-Match, and a second exclusive create wins. */
  @Test
  void droppedConditionsMakeTheStoreIgnoreThem() {
    // a header removed from a signed request breaks its signature: only a store that does not check them
    assumeTrue(S3Endpoints.store() == S3Store.LOCALSTACK, "the store checks signatures: " + S3Endpoints.store());
    s3.putObject(exclusivePut("once.txt", "first"));
    AmazonS3Exception refused = assertThrows(AmazonS3Exception.class,
        () -> s3.putObject(exclusivePut("once.txt", "second")));
    assertEquals(412, refused.getStatusCode(), "faithful: the store refuses the second exclusive create");

    proxy.setFaults(FaultPlan.builder(1).dropConditions(S3Operation.PUT).build());
    s3.putObject(exclusivePut("once.txt", "third"));
    assertEquals("third", s3.getObjectAsString(bucket, "once.txt"), "the condition never reached the store");
    assertTrue(proxy.faults().toString().contains("conditions dropped on [PUT]"), proxy.faults().toString());
  }

  /** What a server access log records of each request: its Referer, kept per request with the status. */
  @Test
  void keepsEachRequestWithItsReferer() {
    put("plain.txt", "no referer");
    PutObjectRequest req = new PutObjectRequest(
        bucket, "attributed.txt", new ByteArrayInputStream(new byte[] {1}), new ObjectMetadata());
    String referer = "https://audit.example.org/hadoop/1/op_put/span-1/?op=op_put&p1=s3a://b/k%2Bplus%26and&ji=j%201";
    req.putCustomRequestHeader("Referer", referer);
    s3.putObject(req);
    assertThrows(AmazonS3Exception.class, () -> s3.getObjectMetadata(bucket, "missing"));

    List<SeenRequest> seen = proxy.requests();
    assertEquals(3, seen.size(), seen.toString());
    assertEquals(S3Operation.PUT, seen.get(0).operation());
    assertEquals(null, seen.get(0).referrer());
    assertEquals(Map.of(), seen.get(0).referrerParams());
    assertEquals(200, seen.get(1).status());
    assertEquals("attributed.txt", seen.get(1).request().key());
    assertEquals(referer, seen.get(1).referrer());
    assertTrue(seen.get(1).userAgent().startsWith("aws-sdk-java/"), seen.get(1).userAgent());
    assertEquals("/hadoop/1/op_put/span-1/", seen.get(1).referrerPath());
    assertEquals(Map.of("op", "op_put", "p1", "s3a://b/k+plus&and", "ji", "j 1"),
        seen.get(1).referrerParams());
    assertEquals(List.of("op", "p1", "ji"), new ArrayList<>(seen.get(1).referrerParams().keySet()));
    assertEquals(S3Operation.HEAD, seen.get(2).operation());
    assertEquals(404, seen.get(2).status());
  }

  @Test
  void listingHidesNewKeysAndShowsDeletedOnesForTheWindow() {
    put("t/old.txt", "old");
    put("t/gone.txt", "bye");
    clock.addAndGet(10_000);
    proxy.setFaults(FaultPlan.builder(1).listingInconsistency(Duration.ofSeconds(5)).build());
    put("t/new.txt", "new");
    put("t/sub/hidden.txt", "x");
    s3.deleteObject(bucket, "t/gone.txt");
    s3.deleteObjects(new DeleteObjectsRequest(bucket).withKeys("t/old.txt"));
    put("t/old.txt", "again"); // re-created: not a ghost any more, hidden as new

    assertEquals(List.of("t/gone.txt"), listV2("t/"));
    ListObjectsV2Result withDelimiter = s3.listObjectsV2(new ListObjectsV2Request().withBucketName(bucket)
        .withPrefix("t/").withDelimiter("/"));
    assertEquals(List.of(), withDelimiter.getCommonPrefixes(), "a prefix whose only child is hidden is hidden");
    assertEquals(1, withDelimiter.getKeyCount());
    assertFalse(s3.doesObjectExist(bucket, "t/gone.txt"), "HEAD sees the truth: only listings lag");
    assertTrue(s3.doesObjectExist(bucket, "t/new.txt"), "HEAD sees the truth: only listings lag");

    clock.addAndGet(5_000);
    assertEquals(List.of("t/new.txt", "t/old.txt", "t/sub/hidden.txt"), listV2("t/"));
  }

  @Test
  void negativeCachingKeepsAnswering404AfterTheWrite() {
    proxy.setFaults(FaultPlan.builder(1).negativeCaching(Duration.ofSeconds(3)).build());
    assertFalse(s3.doesObjectExist(bucket, "late.txt"));
    put("late.txt", "now here");
    AmazonS3Exception e = assertThrows(AmazonS3Exception.class, () -> s3.getObjectAsString(bucket, "late.txt"));
    assertEquals(404, e.getStatusCode());
    assertEquals("NoSuchKey", e.getErrorCode());
    assertFalse(s3.doesObjectExist(bucket, "late.txt"));
    clock.addAndGet(3_000);
    assertEquals("now here", s3.getObjectAsString(bucket, "late.txt"));
    assertEquals(3, proxy.counts().of(S3Operation.HEAD, 404) + proxy.counts().of(S3Operation.GET, 404));
  }

  @Test
  void staleReadReturnsThePreviousVersionForTheWindow() throws IOException {
    put("v.txt", "version one");
    proxy.setFaults(FaultPlan.builder(1).staleReadAfterOverwrite(Duration.ofSeconds(2)).build());
    put("v.txt", "version two!");
    assertEquals("version one", s3.getObjectAsString(bucket, "v.txt"));
    assertEquals("version one".length(), s3.getObjectMetadata(bucket, "v.txt").getContentLength());
    try (S3Object r = s3.getObject(new GetObjectRequest(bucket, "v.txt").withRange(8, 10))) {
      assertEquals("one", new String(IOUtils.toByteArray(r.getObjectContent()), StandardCharsets.UTF_8));
    }
    clock.addAndGet(2_000);
    assertEquals("version two!", s3.getObjectAsString(bucket, "v.txt"));
    assertTrue(proxy.internalRequests() >= 1, "the proxy fetched the old version itself");
  }

  @Test
  void errorOnTheNthMatchingRequest() {
    proxy.setFaults(FaultPlan.builder(1)
        .error(ErrorRule.onNth(ErrorKind.SLOW_DOWN, 2, Set.of(S3Operation.PUT)).matching("/e/"))
        .error(ErrorRule.onNth(ErrorKind.INTERNAL_ERROR, 1, Set.of(S3Operation.GET)))
        .build());
    put("e/1", "a");
    put("x/1", "not matching the pattern");
    AmazonS3Exception slow = assertThrows(AmazonS3Exception.class, () -> put("e/2", "b"));
    assertEquals(503, slow.getStatusCode());
    assertEquals("SlowDown", slow.getErrorCode());
    put("e/3", "c");
    AmazonS3Exception internal = assertThrows(AmazonS3Exception.class, () -> s3.getObjectAsString(bucket, "e/1"));
    assertEquals(500, internal.getStatusCode());
    assertEquals("a", s3.getObjectAsString(bucket, "e/1"));
    assertEquals(List.of("e/1", "e/3"), listV2("e/"), "a request failed before forwarding never happened");
    assertEquals(1, proxy.counts().of(S3Operation.PUT, 503));
    assertEquals(1, proxy.counts().of(S3Operation.GET, 500));
  }

  @Test
  void resetConnectionAndErrorAfterTheStoreAppliedTheRequest() {
    proxy.setFaults(FaultPlan.builder(1)
        .error(ErrorRule.onNth(ErrorKind.RESET, 1, Set.of(S3Operation.HEAD)))
        .error(ErrorRule.onNth(ErrorKind.INTERNAL_ERROR, 1, Set.of(S3Operation.PUT)).afterUpstream())
        .build());
    SdkClientException reset = assertThrows(SdkClientException.class,
        () -> s3.getObjectMetadata(bucket, "anything"));
    assertTrue(String.valueOf(reset.getMessage()).toLowerCase().contains("reset")
        || reset.getCause() instanceof SocketException, reset.toString());
    AmazonS3Exception e = assertThrows(AmazonS3Exception.class, () -> put("applied.txt", "it worked"));
    assertEquals(500, e.getStatusCode());
    assertEquals("it worked", s3.getObjectAsString(bucket, "applied.txt"));
    assertEquals(1, proxy.counts().of(S3Operation.HEAD, 0));
  }

  @Test
  void sameSeedSameFailuresAndLatencyIsAdded() {
    List<Boolean> first = failurePattern(99);
    List<Boolean> second = failurePattern(99);
    List<Boolean> other = failurePattern(100);
    assertEquals(first, second);
    assertTrue(first.contains(true) && first.contains(false), first.toString());
    assertFalse(first.equals(other), "a different seed gives a different pattern: " + first + " " + other);

    proxy.setFaults(FaultPlan.builder(1).latency(Duration.ofMillis(40), Duration.ofMillis(20)).build());
    long t0 = System.nanoTime();
    for (int i = 0; i < 10; i++) {
      s3.doesObjectExist(bucket, "l" + i);
    }
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertTrue(ms >= 400, "10 requests with 40-60 ms each took " + ms + " ms");
  }

  private List<Boolean> failurePattern(long seed) {
    proxy.setFaults(FaultPlan.builder(seed)
        .error(ErrorRule.atRate(ErrorKind.INTERNAL_ERROR, 0.3, Set.of(S3Operation.HEAD))).build());
    List<Boolean> failed = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      try {
        s3.getObjectMetadata(bucket, "p" + i);
        failed.add(false);
      } catch (AmazonS3Exception e) {
        failed.add(e.getStatusCode() == 500);
      }
    }
    return failed;
  }
}
