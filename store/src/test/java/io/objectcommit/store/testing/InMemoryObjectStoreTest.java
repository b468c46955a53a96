package io.objectcommit.store.testing;

import static io.objectcommit.testsupport.proxy.S3Operation.BUCKET;
import static io.objectcommit.testsupport.proxy.S3Operation.BULK_DELETE;
import static io.objectcommit.testsupport.proxy.S3Operation.DELETE;
import static io.objectcommit.testsupport.proxy.S3Operation.GET;
import static io.objectcommit.testsupport.proxy.S3Operation.HEAD;
import static io.objectcommit.testsupport.proxy.S3Operation.LIST;
import static io.objectcommit.testsupport.proxy.S3Operation.LIST_VERSIONS;
import static io.objectcommit.testsupport.proxy.S3Operation.MULTIPART_ABORT;
import static io.objectcommit.testsupport.proxy.S3Operation.MULTIPART_COMPLETE;
import static io.objectcommit.testsupport.proxy.S3Operation.MULTIPART_INITIATE;
import static io.objectcommit.testsupport.proxy.S3Operation.MULTIPART_LIST;
import static io.objectcommit.testsupport.proxy.S3Operation.MULTIPART_PART;
import static io.objectcommit.testsupport.proxy.S3Operation.PUT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.Listings;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.ObjectVersion;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoredBytes;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.VersionPage;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.statistics.StoreStatisticNames;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.PathIOException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The contract suite on the in-memory store, and what only the fake offers: counts, faults, hidden keys. */
class InMemoryObjectStoreTest extends AbstractObjectStoreContractTest {

  private InMemoryObjectStore fake;

  @BeforeEach
  void open() {
    fake = InMemoryObjectStore.create("contract-bucket", contractConfiguration(new Configuration(false)));
    use(fake, "contract/");
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void requestsAreCountedAsTheProxyCountsThemWithTheirStatus() throws Exception {
    ObjectInfo a = fake.put("k/a", Payload.of(bytes("abc")), WriteCondition.none());
    assertThrows(FileAlreadyExistsException.class, () -> fake.createExclusive("k/a", Payload.of(bytes("x"))));
    fake.getBytesIfChanged("k/a", a.etag());
    fake.open("k/a", 1, 2).close();
    assertThrows(FileNotFoundException.class, () -> fake.getBytes("k/missing"));
    fake.head("k/missing");
    fake.head("k/missing");
    fake.list("k/", "/", null, 10);
    fake.delete("k/a");
    List<String> many = new ArrayList<>();
    for (int i = 0; i < 2500; i++) {
      many.add("k/" + i);
    }
    fake.deleteBatch(many);
    MultipartUpload u = fake.initiateMultipartUpload("k/mp");
    UploadedPart p = fake.uploadPart(u, 1, Payload.of(bytes("part")));
    fake.completeMultipartUpload(u, List.of(p), WriteCondition.ifAbsent());
    fake.abortMultipartUpload(u);
    fake.listMultipartUploads("k/");

    InMemoryRequestCounts c = fake.counts();
    assertEquals(1, c.of(PUT, 200));
    assertEquals(1, c.of(PUT, 412));
    assertEquals(1, c.conditional(PUT));
    assertEquals(1, c.of(GET, 304));
    assertEquals(1, c.of(GET, 206));
    assertEquals(1, c.of(GET, 404));
    assertEquals(2, c.of(HEAD, 404));
    assertEquals(1, c.of(BUCKET, 200), "one HEAD of the bucket after the first 404, as the real store sends");
    assertEquals(1, c.of(LIST));
    assertEquals(1, c.of(DELETE, 204));
    assertEquals(3, c.of(BULK_DELETE), "2,500 keys: three requests");
    assertEquals(1, c.of(MULTIPART_INITIATE));
    assertEquals(1, c.of(MULTIPART_PART));
    assertEquals(1, c.of(MULTIPART_COMPLETE));
    assertEquals(1, c.conditional(MULTIPART_COMPLETE));
    assertEquals(1, c.of(MULTIPART_ABORT, 404), "the upload was completed already");
    assertEquals(1, c.of(MULTIPART_LIST));
    assertEquals(18, c.total(), c.toString());
    assertTrue(c.toString().startsWith("total=18 PUT=2(200:1,412:1) GET=3(206:1,304:1,404:1) HEAD=2(404:2)"),
        c.toString());

    InMemoryRequestCounts before = fake.counts();
    fake.head("k/mp");
    InMemoryRequestCounts d = fake.counts().minus(before);
    assertEquals(1, d.total(), d.toString());
    assertEquals(1, d.succeeded(HEAD));
    fake.resetCounts();
    assertEquals(0, fake.counts().total());
    assertEquals(19, fake.statistics().snapshot().totalRequests(),
        "the store's statistics are its own, not reset with the bucket's counts");
  }

  @Test
  void aFaultFailsTheRequestBeforeOrAfterItIsApplied() throws Exception {
    fake.addFault(FaultRule.failing(PUT).matching("^before$"));
    fake.addFault(FaultRule.failing(PUT).matching("^after$").afterApplying());
    assertThrows(PathIOException.class, () -> fake.put("before", Payload.of(bytes("1")), WriteCondition.none()));
    assertFalse(fake.exists("before"), "failed before it was applied");
    assertThrows(PathIOException.class, () -> fake.put("after", Payload.of(bytes("1")), WriteCondition.none()));
    assertArrayEquals(bytes("1"), fake.bytes("after"), "applied, the answer lost");
    assertEquals(2, fake.counts().of(PUT, 500));
    assertEquals(2, fake.statistics().snapshot().get(StoreStatisticNames.OP_PUT).failures);
    fake.put("other", Payload.of(bytes("1")), WriteCondition.none());
    fake.clearFaults();
    fake.put("before", Payload.of(bytes("1")), WriteCondition.none());
  }

  @Test
  void aFaultCanHitTheNthMatchOrTheFirstMatchesWithAChosenException() throws Exception {
    fake.addFault(FaultRule.failing(GET, HEAD).matching("x").onNth(2)
        .throwing(path -> new AccessDeniedException(path)).countedAs(403));
    fake.put("x", Payload.of(bytes("1")), WriteCondition.none());
    fake.getBytes("x");
    assertThrows(AccessDeniedException.class, () -> fake.head("x"));
    fake.getBytes("x");
    assertEquals(1, fake.counts().of(HEAD, 403));

    fake.clearFaults();
    fake.addFault(FaultRule.failing().times(2));
    assertThrows(IOException.class, () -> fake.list("", null, null, 10));
    assertThrows(IOException.class, () -> fake.delete("x"));
    fake.delete("x");
    assertFalse(fake.exists("x"));
  }

  @Test
  void aBulkDeleteFaultMatchesAnyKeyOfTheBatch() throws Exception {
    fake.put("a", Payload.of(bytes("1")), WriteCondition.none());
    fake.put("b", Payload.of(bytes("1")), WriteCondition.none());
    fake.addFault(FaultRule.failing(BULK_DELETE).matching("^b$"));
    assertThrows(PathIOException.class, () -> fake.deleteBatch(List.of("a", "b")));
    assertEquals(List.of("a", "b"), fake.keys(""), "a fault before applying deletes nothing");
  }

  @Test
  void hiddenKeysAreMissingFromListingsOnly() throws Exception {
    fake.put("h/1", Payload.of(bytes("1")), WriteCondition.none());
    fake.put("h/2", Payload.of(bytes("2")), WriteCondition.none());
    fake.hideFromListing("h/1");
    assertEquals(List.of("h/2"), listed("h/"));
    assertTrue(fake.head("h/1").isPresent(), "reads still find it");
    fake.showAllInListing();
    assertEquals(List.of("h/1", "h/2"), listed("h/"));

    AtomicLong clock = new AtomicLong(1_000_000);
    fake.setClock(clock::get);
    fake.hideNewKeysFromListing(Duration.ofSeconds(10));
    fake.put("h/3", Payload.of(bytes("3")), WriteCondition.none());
    assertEquals(List.of(), listed("h/"), "written 'now' on the fake clock: h/1 and h/2 count as new too");
    clock.addAndGet(10_000);
    assertEquals(List.of("h/3"), listed("h/"), "h/1 and h/2 were written before the clock was set");
  }

  private List<String> listed(String prefix) throws IOException {
    return fake.list(prefix, null, null, 1000).objects().stream().map(ObjectInfo::key).collect(Collectors.toList());
  }

  @Test
  void storesOpenedOnARegisteredBucketShareItsDataAndCountsButNotStatistics() throws Exception {
    InMemoryObjectStore first = InMemoryObjectStore.register("registered-bucket");
    try (ObjectStore second = InMemoryObjectStore.open("registered-bucket", new Configuration(false))) {
      assertNotSame(first, second);
      second.put("k", Payload.of(bytes("v")), WriteCondition.none());
      assertArrayEquals(bytes("v"), first.getBytes("k").data());
      assertEquals(2, first.counts().total());
      assertEquals(1, first.statistics().snapshot().totalRequests());
      assertEquals(1, second.statistics().snapshot().totalRequests());
    }
    InMemoryObjectStore.register("registered-bucket");
    assertFalse(InMemoryObjectStore.open("registered-bucket", new Configuration(false)).exists("k"),
        "registering again starts a new empty bucket");
    InMemoryObjectStore.unregister("registered-bucket");
    assertThrows(FileNotFoundException.class, () -> InMemoryObjectStore.open("registered-bucket",
        new Configuration(false)));
    assertTrue(first.exists("k"), "a store keeps its bucket");
  }

  @Test
  void racingCompareAndSwapLoopsLoseNoUpdate() throws Exception {
    fake.put("counter", Payload.of(bytes("0")), WriteCondition.none());
    int threads = 8;
    int each = 50;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(pool.submit(() -> {
          for (int i = 0; i < each; i++) {
            while (true) {
              StoredBytes cur = fake.getBytes("counter");
              long n = Long.parseLong(new String(cur.data(), StandardCharsets.UTF_8));
              try {
                fake.replaceIfMatch("counter", Payload.of(bytes(Long.toString(n + 1))), cur.info().etag());
                break;
              } catch (ObjectChangedException lost) {
                // another thread won this round: read again
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(Long.toString(threads * each), new String(fake.bytes("counter"), StandardCharsets.UTF_8));
  }

  @Test
  void completionChecksThePartsAsS3Does() throws Exception {
    MultipartUpload u = fake.initiateMultipartUpload("parts");
    UploadedPart small = fake.uploadPart(u, 1, Payload.of(bytes("small")));
    UploadedPart last = fake.uploadPart(u, 2, Payload.of(bytes("last")));
    assertThrows(PathIOException.class, () -> fake.completeMultipartUpload(u, List.of(small, last),
        WriteCondition.none()), "EntityTooSmall: a part before the last is below 5 MiB");
    assertThrows(PathIOException.class, () -> fake.completeMultipartUpload(u,
        List.of(new UploadedPart(1, "0123456789abcdef0123456789abcdef", 5)), WriteCondition.none()),
        "InvalidPart: a wrong ETag");
    assertThrows(FileNotFoundException.class, () -> fake.uploadPart(new MultipartUpload("parts", "no-such", 0), 1,
        Payload.of(bytes("x"))));
    ObjectInfo done = fake.completeMultipartUpload(u, List.of(last), WriteCondition.none());
    assertArrayEquals(bytes("last"), fake.bytes("parts"), "S3 completes with the parts listed, skipping others");
    assertTrue(done.etag().endsWith("-1"), done.etag());
    assertEquals(Optional.empty(), Optional.ofNullable(fake.bytes("never")));
    assertNull(fake.bytes("never"));
    assertEquals(List.of(), fake.pendingUploads(""));
    try (InputStream in = fake.open("parts", 0, -1)) {
      assertArrayEquals(bytes("last"), in.readAllBytes());
    }
  }

  /** The fake is an unversioned bucket: each object one current version with id "null", page by page. */
  @Test
  void versionsAreThoseOfAnUnversionedBucket() throws Exception {
    for (String k : List.of("v/a", "v/b", "v/c", "w/d")) {
      fake.put(k, Payload.of(bytes(k)), WriteCondition.none());
    }
    fake.put("v/a", Payload.of(bytes("again")), WriteCondition.none());
    fake.delete("v/c");
    VersionPage first = fake.listVersions("v/", null, null, 1);
    assertEquals(List.of("v/a"), first.versions().stream().map(ObjectVersion::key).collect(Collectors.toList()));
    assertEquals("v/a", first.nextKeyMarker().orElseThrow());
    List<ObjectVersion> all = Listings.versions(fake, "v/");
    assertEquals(List.of("v/a null true false 5", "v/b null true false 3"), all.stream()
        .map(v -> v.key() + " " + v.versionId() + " " + v.isLatest() + " " + v.isDeleteMarker() + " " + v.size())
        .collect(Collectors.toList()));
    assertEquals(2, fake.counts().of(LIST_VERSIONS, 200));
    assertEquals(2, fake.statistics().snapshot().get(StoreStatisticNames.OP_LIST_VERSIONS).count);
  }
}
