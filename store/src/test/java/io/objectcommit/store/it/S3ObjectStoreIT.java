package io.objectcommit.store.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.ListPage;
import io.objectcommit.store.Listings;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.ObjectVersion;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoreCapabilities;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.VersionPage;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.guarantee.StoreGuarantee;
import io.objectcommit.store.guarantee.StoreGuaranteeException;
import io.objectcommit.store.statistics.StoreStatisticNames;
import io.objectcommit.store.statistics.StoreStatistics;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every store operation against a real S3 implementation (LocalStack unless configured otherwise), on each SDK
 * binding ({@link S3ObjectStoreV1IT}, {@link S3ObjectStoreV2IT}).
 */
@S3IntegrationTest
abstract class S3ObjectStoreIT {

  /** The binding under test. */
  abstract Sdk sdk();

  private static final int MIB = 1024 * 1024;

  private ObjectStore open(S3TestBucket bucket) throws Exception {
    return sdk().open(bucket.name(), conf(bucket));
  }

  static Configuration conf(S3TestBucket bucket) {
    Configuration conf = bucket.hadoopConfiguration();
    conf.set("fs.s3a.multipart.size", "5M");
    conf.set("fs.s3a.multipart.threshold", "5M");
    return conf;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void putGetHeadDeleteFromBytesFileAndStream(S3TestBucket bucket, @TempDir Path tmp) throws Exception {
    try (ObjectStore store = open(bucket)) {
      ObjectInfo a = store.put(bucket.key("a"), Payload.of(bytes("alpha")), WriteCondition.none());
      Path f = tmp.resolve("f");
      Files.write(f, bytes("from a file"));
      store.put(bucket.key("f"), Payload.of(f), WriteCondition.none());
      store.put(bucket.key("s"), Payload.of(new ByteArrayInputStream(bytes("streamed")), -1), WriteCondition.none());

      assertArrayEquals(bytes("alpha"), store.getBytes(bucket.key("a")).data());
      assertEquals(a.etag(), store.getBytes(bucket.key("a")).info().etag());
      assertArrayEquals(bytes("from a file"), store.getBytes(bucket.key("f")).data());
      assertArrayEquals(bytes("streamed"), store.getBytes(bucket.key("s")).data());
      ObjectInfo head = store.head(bucket.key("a")).orElseThrow();
      assertEquals(5, head.size());
      assertEquals(a.etag(), head.etag());
      assertTrue(head.lastModified() > 0);

      store.delete(bucket.key("a"));
      assertTrue(store.head(bucket.key("a")).isEmpty());
      assertThrows(FileNotFoundException.class, () -> store.getBytes(bucket.key("a")));
      store.delete(bucket.key("a")); // deleting a missing object succeeds
    }
  }

  @Test
  void conditionalGetRevalidatesACachedCopy(S3TestBucket bucket) throws Exception {
    try (ObjectStore store = open(bucket)) {
      String k = bucket.key("cached");
      ObjectInfo v1 = store.put(k, Payload.of(bytes("v1")), WriteCondition.none());
      assertTrue(store.getBytesIfChanged(k, v1.etag()).isEmpty(), "unchanged: 304, no body");
      store.put(k, Payload.of(bytes("v2")), WriteCondition.none());
      assertArrayEquals(bytes("v2"), store.getBytesIfChanged(k, v1.etag()).orElseThrow().data());
      assertThrows(FileNotFoundException.class, () -> store.getBytesIfChanged(bucket.key("gone"), v1.etag()));
    }
  }

  @Test
  void rangedReads(S3TestBucket bucket) throws Exception {
    try (ObjectStore store = open(bucket)) {
      store.put(bucket.key("r"), Payload.of(bytes("0123456789")), WriteCondition.none());
      try (InputStream in = store.open(bucket.key("r"), 2, 5)) {
        assertArrayEquals(bytes("234"), in.readAllBytes());
      }
      try (InputStream in = store.open(bucket.key("r"), 7, -1)) {
        assertArrayEquals(bytes("789"), in.readAllBytes());
      }
      try (InputStream in = store.open(bucket.key("r"), 0, -1)) {
        assertEquals('0', in.read()); // closed early: the connection is aborted, not drained
      }
      assertEquals(7, store.statistics().snapshot().get(StoreStatisticNames.OP_GET).bytes, "3 + 3 + 1 bytes read");
      assertThrows(FileNotFoundException.class, () -> store.open(bucket.key("missing"), 0, -1));
    }
  }

  @Test
  void listPagesAndDelimiter(S3TestBucket bucket) throws Exception {
    try (ObjectStore store = open(bucket)) {
      for (String k : List.of("d/a", "d/b", "d/c", "d/sub/x", "d/sub/y", "e/z")) {
        store.put(bucket.key(k), Payload.of(bytes(k)), WriteCondition.none());
      }
      ListPage p1 = store.list(bucket.key("d/"), null, null, 2);
      assertEquals(List.of(bucket.key("d/a"), bucket.key("d/b")), keys(p1));
      ListPage p2 = store.list(bucket.key("d/"), null, p1.nextToken().orElseThrow(), 2);
      ListPage p3 = store.list(bucket.key("d/"), null, p2.nextToken().orElseThrow(), 2);
      assertEquals(List.of(bucket.key("d/c"), bucket.key("d/sub/x")), keys(p2));
      assertEquals(List.of(bucket.key("d/sub/y")), keys(p3));
      assertTrue(p3.nextToken().isEmpty());

      ListPage dir = store.list(bucket.key("d/"), "/", null, 1000);
      assertEquals(List.of(bucket.key("d/a"), bucket.key("d/b"), bucket.key("d/c")), keys(dir));
      assertEquals(List.of(bucket.key("d/sub/")), dir.prefixes());
    }
  }

  private static List<String> keys(ListPage p) {
    return p.objects().stream().map(ObjectInfo::key).collect(Collectors.toList());
  }

  @Test
  void batchDeleteOf2500KeysTakesThreeRequests(S3TestBucket bucket) throws Exception {
    try (ObjectStore store = open(bucket)) {
      List<String> keys = IntStream.range(0, 2500).mapToObj(i -> bucket.key("many/" + i)).collect(Collectors.toList());
      for (String k : keys.subList(0, 30)) {
        store.put(k, Payload.of(bytes(k)), WriteCondition.none());
      }
      StoreStatistics.Snapshot before = store.statistics().snapshot();
      assertEquals(2500, store.deleteBatch(keys));
      StoreStatistics.Snapshot used = store.statistics().snapshot().minus(before);
      assertEquals(3, used.count(StoreStatisticNames.OP_DELETE_BULK));
      assertEquals(3, used.totalRequests());
      assertTrue(bucket.listKeys("many/").isEmpty());
    }
  }

  @Test
  void sixteenRacingExclusiveCreatesHaveExactlyOneWinner(S3TestBucket bucket) throws Exception {
    int writers = 16;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try (ObjectStore store = open(bucket)) {
      store.capabilities(); // probe first, so that the race is the race and not the probe
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        int id = i;
        Callable<Boolean> c = () -> {
          go.await();
          try {
            store.createExclusive(bucket.key("race"), Payload.of(bytes("writer-" + id)));
            return true;
          } catch (FileAlreadyExistsException e) {
            assertTrue(e.getMessage().contains(bucket.key("race")), e.getMessage());
            return false;
          }
        };
        results.add(pool.submit(c));
      }
      go.countDown();
      List<Integer> winners = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        if (results.get(i).get()) {
          winners.add(i);
        }
      }
      assertEquals(1, winners.size(), "winners: " + winners);
      // read by another client, as a reader would: LocalStack closes each connection on which it refused an upload
      // sent with Expect: 100-continue, and 15 such connections in this client's pool are more than one request's
      // retries (docs/user-guide.md, "Seen with LocalStack")
      try (ObjectStore reader = open(bucket)) {
        assertArrayEquals(bytes("writer-" + winners.get(0)), reader.getBytes(bucket.key("race")).data());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void compareAndSwap(S3TestBucket bucket) throws Exception {
    try (ObjectStore store = open(bucket)) {
      String k = bucket.key("cas");
      ObjectInfo v1 = store.createExclusive(k, Payload.of(bytes("v1")));
      ObjectInfo v2 = store.replaceIfMatch(k, Payload.of(bytes("v2")), v1.etag());
      ObjectChangedException stale = assertThrows(ObjectChangedException.class,
          () -> store.replaceIfMatch(k, Payload.of(bytes("v3")), v1.etag()));
      assertTrue(stale.getMessage().contains(k), stale.getMessage());
      assertArrayEquals(bytes("v2"), store.getBytes(k).data());
      assertEquals(v2.etag(), store.getBytes(k).info().etag());
      assertThrows(FileNotFoundException.class,
          () -> store.replaceIfMatch(bucket.key("never-written"), Payload.of(bytes("x")), v1.etag()));
    }
  }

  @Test
  void multipartCompleteWithIfNoneMatchOnAnExistingKeyFailsAndLeavesTheObjectIntact(S3TestBucket bucket)
      throws Exception {
    try (ObjectStore store = open(bucket)) {
      String k = bucket.key("mp/existing");
      store.put(k, Payload.of(bytes("original")), WriteCondition.none());
      MultipartUpload u = store.initiateMultipartUpload(k);
      UploadedPart p1 = store.uploadPart(u, 1, Payload.of(new byte[5 * MIB]));
      UploadedPart p2 = store.uploadPart(u, 2, Payload.of(bytes("tail")));
      assertThrows(FileAlreadyExistsException.class,
          () -> store.completeMultipartUpload(u, List.of(p1, p2), WriteCondition.ifAbsent()));
      assertArrayEquals(bytes("original"), store.getBytes(k).data());
      assertEquals(List.of(u), store.listMultipartUploads(bucket.key("mp/")), "the refused upload stays open");
      store.abortMultipartUpload(u);
      store.abortMultipartUpload(u); // aborting a gone upload succeeds
      assertTrue(store.listMultipartUploads(bucket.key("mp/")).isEmpty());
    }
  }

  @Test
  void multipartUploadsAppearWholeWithTheEtagWeCanPredict(S3TestBucket bucket) throws Exception {
    try (ObjectStore store = open(bucket)) {
      String k = bucket.key("mp/new");
      byte[] data = new byte[11 * MIB];
      new Random(42).nextBytes(data);
      StoreStatistics.Snapshot before = store.statistics().snapshot();
      ObjectInfo info = store.put(k, Payload.of(data), WriteCondition.ifAbsent());
      StoreStatistics.Snapshot used = store.statistics().snapshot().minus(before);
      assertEquals(1, used.count(StoreStatisticNames.OP_MULTIPART_INITIATE));
      assertEquals(3, used.count(StoreStatisticNames.OP_MULTIPART_PART));
      assertEquals(1, used.count(StoreStatisticNames.OP_MULTIPART_COMPLETE));
      assertTrue(info.etag().endsWith("-3"), info.etag());
      assertArrayEquals(data, store.getBytes(k).data());
      assertEquals(info.etag(), store.head(k).orElseThrow().etag());
      assertThrows(FileAlreadyExistsException.class, () -> store.put(k, Payload.of(data), WriteCondition.ifAbsent()));
      assertTrue(store.listMultipartUploads(bucket.key("mp/")).isEmpty(), "the refused upload was aborted");
    }
  }

  @Test
  void conditionalWritesAreVerifiedOnceOnLocalStack(S3TestBucket bucket) throws Exception {
    try (ObjectStore store = open(bucket)) {
      StoreCapabilities caps = store.capabilities();
      assertTrue(caps.atomicConditionalWrites());
      assertFalse(store.head(".objectcommit/probe/x").isPresent());
      assertTrue(bucket.listKeys(".objectcommit/").isEmpty(), "the probe leaves nothing behind");
    }
  }

  /**
   * ListObjectVersions on a versioned bucket, page by page: each key's current entry first, replaced objects as
   * noncurrent versions, a delete as a marker over the deleted bytes; the same as the harness's own listing.
   */
  @Test
  void versionsAndDeleteMarkersOfAVersionedBucketPageByPage(S3TestBucket bucket) throws Exception {
    bucket.enableVersioning();
    try (ObjectStore store = open(bucket)) {
      // the store guarantee check writes (and deletes) its objects beside the first conditional write: not there
      try {
        store.requireGuarantees(StoreGuarantee.ofWrites(), "the test's warm-up");
      } catch (StoreGuaranteeException storeLacksOne) {
        // checked all the same
      }
      String dir = bucket.key("versions/");
      store.put(dir + "a", Payload.of(bytes("one")), WriteCondition.none());
      ObjectInfo a = store.put(dir + "a", Payload.of(bytes("two!")), WriteCondition.none());
      store.replaceIfMatch(dir + "a", Payload.of(bytes("three")), a.etag());
      store.put(dir + "b", Payload.of(bytes("b")), WriteCondition.none());
      store.delete(dir + "b");
      StoreStatistics.Snapshot before = store.statistics().snapshot();
      List<ObjectVersion> all = new ArrayList<>();
      VersionPage page = store.listVersions(dir, null, null, 2);
      all.addAll(page.versions());
      while (page.nextKeyMarker().isPresent()) {
        page = store.listVersions(dir, page.nextKeyMarker().get(), page.nextVersionIdMarker(), 2);
        all.addAll(page.versions());
      }
      assertEquals(List.of("a current 5", "a noncurrent 4", "a noncurrent 3", "b marker 0", "b noncurrent 1"),
          all.stream().map(v -> v.key().substring(dir.length()) + " "
              + (v.isDeleteMarker() ? "marker" : v.isLatest() ? "current" : "noncurrent") + " " + v.size())
              .collect(Collectors.toList()), all.toString());
      assertEquals(all, Listings.versions(store, dir), "pages of 2 or of 1,000");
      assertEquals(bucket.plain().listVersions(bucket.name(), dir).stream().map(v -> v.key() + " " + v.versionId())
          .collect(Collectors.toList()), all.stream().map(v -> v.key() + " " + v.versionId())
          .collect(Collectors.toList()), "as the harness lists them");
      assertTrue(all.stream().allMatch(v -> v.lastModified() > 0 && v.versionId() != null), all.toString());
      StoreStatistics.Snapshot d = store.statistics().snapshot().minus(before);
      assertEquals(3 + 1, d.get(StoreStatisticNames.OP_LIST_VERSIONS).count, "3 pages of 2, then one of 1,000");
    }
  }
}
