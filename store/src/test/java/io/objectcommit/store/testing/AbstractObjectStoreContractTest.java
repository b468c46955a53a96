package io.objectcommit.store.testing;

import static io.objectcommit.store.statistics.StoreStatisticNames.OP_DELETE_BULK;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_GET;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_HEAD;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_HEAD_BUCKET;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_LIST;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_MULTIPART_COMPLETE;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_MULTIPART_INITIATE;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_MULTIPART_PART;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_PUT;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_PUT_CONDITIONAL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.ListPage;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoredBytes;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.guarantee.ProbeSite;
import io.objectcommit.store.statistics.StoreStatistics;
import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.PathIOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link ObjectStore} does, asserted as S3 and {@code S3ObjectStore} behave: run against the real
 * store on an S3 implementation ({@code S3ObjectStoreContractIT}) and against {@link InMemoryObjectStore}
 * ({@code InMemoryObjectStoreTest}), so that unit tests on the fake mean something for the real store. A
 * subclass opens the store in a {@code @BeforeEach} with {@link #contractConfiguration} and calls {@link #use}.
 */
public abstract class AbstractObjectStoreContractTest {

  protected static final int MIB = 1024 * 1024;

  private ObjectStore store;
  private String prefix;

  /** The store under test and a prefix of keys no other test uses (ending with '/'). */
  protected final void use(ObjectStore store, String prefix) {
    this.store = store;
    this.prefix = prefix;
  }

  /** Multipart settings at their minimum (5 MiB parts from 5 MiB on), so that multipart tests stay small. */
  protected static Configuration contractConfiguration(Configuration conf) {
    conf.set("fs.s3a.multipart.size", "5M");
    conf.set("fs.s3a.multipart.threshold", "5M");
    return conf;
  }

  @AfterEach
  void closeStore() throws IOException {
    if (store != null) {
      store.close();
    }
  }

  protected ObjectStore store() {
    return store;
  }

  protected String key(String relative) {
    return prefix + relative;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] pattern(int length, int seed) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) (i * 31 + seed + (i >> 11));
    }
    return b;
  }

  private static String md5Hex(byte[] data, int from, int to) throws Exception {
    MessageDigest md5 = MessageDigest.getInstance("MD5");
    md5.update(data, from, to - from);
    return HexFormat.of().formatHex(md5.digest());
  }

  /** S3's ETag of a multipart object: MD5 of the parts' binary MD5s, "-", the number of parts. */
  private static String multipartEtag(List<String> partMd5s) throws Exception {
    MessageDigest md5 = MessageDigest.getInstance("MD5");
    partMd5s.forEach(h -> md5.update(HexFormat.of().parseHex(h)));
    return HexFormat.of().formatHex(md5.digest()) + "-" + partMd5s.size();
  }

  private static byte[] readAll(InputStream in) throws IOException {
    try (InputStream i = in) {
      return i.readAllBytes();
    }
  }

  // -------------------------------------------------------------------------------------- writes, reads

  @Test
  void aPutIsReadBackWholeWithTheMd5OfItsBytesAsEtag() throws Exception {
    byte[] data = bytes("alpha beta gamma");
    ObjectInfo put = store.put(key("a"), Payload.of(data), WriteCondition.none());
    assertEquals(key("a"), put.key());
    assertEquals(md5Hex(data, 0, data.length), put.etag(), "a single PUT's ETag is the MD5 of its bytes");

    StoredBytes got = store.getBytes(key("a"));
    assertArrayEquals(data, got.data());
    assertEquals(put.etag(), got.info().etag());
    assertEquals(data.length, got.info().size());
    ObjectInfo head = store.head(key("a")).orElseThrow();
    assertEquals(put.etag(), head.etag());
    assertEquals(data.length, head.size());
    assertTrue(head.lastModified() > 0, "HEAD reports a modification time");

    store.put(key("s"), Payload.of(new ByteArrayInputStream(data), -1), WriteCondition.none());
    assertArrayEquals(data, store.getBytes(key("s")).data(), "a stream of unknown length");
    assertEquals(put.etag(), store.head(key("s")).orElseThrow().etag(), "same bytes, same ETag");
  }

  @Test
  void anOverwriteReplacesTheObjectWhole() throws Exception {
    store.put(key("o"), Payload.of(bytes("first version")), WriteCondition.none());
    ObjectInfo second = store.put(key("o"), Payload.of(bytes("2nd")), WriteCondition.none());
    StoredBytes got = store.getBytes(key("o"));
    assertArrayEquals(bytes("2nd"), got.data());
    assertEquals(second.etag(), got.info().etag());
  }

  @Test
  void missingKeysAreNotFoundAndDeletingThemSucceeds() throws Exception {
    String k = key("missing");
    assertThrows(FileNotFoundException.class, () -> store.getBytes(k));
    assertThrows(FileNotFoundException.class, () -> store.getBytesIfChanged(k, "0123"));
    assertThrows(FileNotFoundException.class, () -> store.open(k, 0, -1));
    assertThrows(FileNotFoundException.class, () -> store.open(k, 1, 5));
    assertEquals(Optional.empty(), store.head(k));
    store.delete(k);
    assertEquals(2, store.deleteBatch(List.of(k, key("missing-too"))));
  }

  @Test
  void rangedReadsReturnExactlyTheRange() throws Exception {
    byte[] data = bytes("0123456789");
    store.put(key("r"), Payload.of(data), WriteCondition.none());
    assertArrayEquals(bytes("234"), readAll(store.open(key("r"), 2, 5)));
    assertArrayEquals(bytes("789"), readAll(store.open(key("r"), 7, -1)));
    assertArrayEquals(data, readAll(store.open(key("r"), 0, -1)));
    assertArrayEquals(bytes("89"), readAll(store.open(key("r"), 8, 100)), "a range past the end is cut short");
    assertArrayEquals(new byte[0], readAll(store.open(key("r"), 4, 4)), "an empty range");
    assertThrows(PathIOException.class, () -> readAll(store.open(key("r"), 10, -1)),
        "a range starting at the end: 416");
    assertThrows(IllegalArgumentException.class, () -> store.open(key("r"), 5, 4));
  }

  @Test
  void getIfChangedAnswersNothingWhileTheEtagHolds() throws Exception {
    ObjectInfo v1 = store.put(key("c"), Payload.of(bytes("one")), WriteCondition.none());
    assertEquals(Optional.empty(), store.getBytesIfChanged(key("c"), v1.etag()));
    ObjectInfo v2 = store.put(key("c"), Payload.of(bytes("two")), WriteCondition.none());
    StoredBytes changed = store.getBytesIfChanged(key("c"), v1.etag()).orElseThrow();
    assertArrayEquals(bytes("two"), changed.data());
    assertEquals(v2.etag(), changed.info().etag());
    assertArrayEquals(bytes("two"), store.getBytesIfChanged(key("c"), null).orElseThrow().data());
  }

  // -------------------------------------------------------------------------------------- conditions

  @Test
  void anExclusiveCreateIsRefusedWhenTheKeyExists() throws Exception {
    store.createExclusive(key("x"), Payload.of(bytes("mine")));
    assertThrows(FileAlreadyExistsException.class,
        () -> store.createExclusive(key("x"), Payload.of(bytes("yours"))));
    assertArrayEquals(bytes("mine"), store.getBytes(key("x")).data(), "the refused write changed nothing");
  }

  @Test
  void aCompareAndSwapSucceedsOnlyOnTheCurrentEtag() throws Exception {
    ObjectInfo v1 = store.put(key("cas"), Payload.of(bytes("v1")), WriteCondition.none());
    ObjectInfo v2 = store.replaceIfMatch(key("cas"), Payload.of(bytes("v2")), v1.etag());
    assertArrayEquals(bytes("v2"), store.getBytes(key("cas")).data());
    ObjectChangedException stale = assertThrows(ObjectChangedException.class,
        () -> store.replaceIfMatch(key("cas"), Payload.of(bytes("v3")), v1.etag()));
    assertEquals(v1.etag(), stale.expectedEtag());
    assertArrayEquals(bytes("v2"), store.getBytes(key("cas")).data(), "the refused write changed nothing");
    assertThrows(FileNotFoundException.class,
        () -> store.replaceIfMatch(key("cas-missing"), Payload.of(bytes("v1")), v2.etag()));
    assertEquals(Optional.empty(), store.head(key("cas-missing")));
  }

  @Test
  void ofRacingExclusiveCreatesExactlyOneWins() throws Exception {
    int n = 8;
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        byte[] body = bytes("writer " + i);
        Callable<Boolean> c = () -> {
          start.await();
          try {
            store.createExclusive(key("race"), Payload.of(body));
            return true;
          } catch (FileAlreadyExistsException e) {
            return false;
          }
        };
        results.add(pool.submit(c));
      }
      start.countDown();
      int won = 0;
      for (Future<Boolean> f : results) {
        won += f.get() ? 1 : 0;
      }
      assertEquals(1, won);
    } finally {
      pool.shutdownNow();
    }
  }

  // ------------------------------------------------------------------------------------------ listing

  private List<String> allKeys(String p, String delimiter, int pageSize, List<Integer> pageSizes)
      throws IOException {
    List<String> out = new ArrayList<>();
    String token = null;
    do {
      ListPage page = store.list(p, delimiter, token, pageSize);
      page.objects().forEach(o -> out.add(o.key()));
      out.addAll(page.prefixes());
      pageSizes.add(page.objects().size() + page.prefixes().size());
      token = page.nextToken().orElse(null);
    } while (token != null);
    return out;
  }

  @Test
  void listingsRollUpBelowTheDelimiterAndPageInKeyOrder() throws Exception {
    for (String k : List.of("a/2", "a/1", "a/c/5", "a/b/3", "a/c/4", "b")) {
      store.put(key(k), Payload.of(bytes(k)), WriteCondition.none());
    }
    ListPage page = store.list(key("a/"), "/", null, 1000);
    assertEquals(List.of(key("a/1"), key("a/2")), page.objects().stream().map(ObjectInfo::key)
        .collect(Collectors.toList()));
    assertEquals(List.of(key("a/b/"), key("a/c/")), page.prefixes());
    assertEquals(Optional.empty(), page.nextToken());
    ObjectInfo a1 = page.objects().get(0);
    assertEquals(3, a1.size());
    assertEquals(store.head(key("a/1")).orElseThrow().etag(), a1.etag());

    ListPage top = store.list(prefix, "/", null, 1000);
    assertEquals(List.of(key("b")), top.objects().stream().map(ObjectInfo::key).collect(Collectors.toList()));
    assertEquals(List.of(key("a/")), top.prefixes());

    List<Integer> sizes = new ArrayList<>();
    assertEquals(List.of(key("a/1"), key("a/2"), key("a/b/3"), key("a/c/4"), key("a/c/5"), key("b")),
        allKeys(prefix, null, 2, sizes), "every key once, in key order");
    assertEquals(List.of(2, 2, 2), sizes);

    sizes.clear();
    assertEquals(List.of(key("a/1"), key("a/2"), key("a/b/"), key("a/c/")), allKeys(key("a/"), "/", 1, sizes),
        "keys and common prefixes both count towards the page size");
    assertEquals(List.of(1, 1, 1, 1), sizes);

    assertEquals(List.of(), store.list(key("nothing/"), "/", null, 10).objects());
  }

  @Test
  void aCopyIsTheSourcesBytesUnderTheNewKeyWhileTheSourceIsTheOneMeant() throws Exception {
    byte[] data = bytes("copied bytes");
    ObjectInfo source = store.put(key("copy/source"), Payload.of(data), WriteCondition.none());
    store.put(key("copy/target"), Payload.of(bytes("older")), WriteCondition.none());
    ObjectInfo copy = store.copy(key("copy/source"), source.etag(), key("copy/target"));
    assertEquals(key("copy/target"), copy.key());
    assertEquals(source.etag(), copy.etag(), "a copy of a single-PUT object has its MD5 ETag");
    assertArrayEquals(data, store.getBytes(key("copy/target")).data(), "the copy replaced the older object");
    assertArrayEquals(data, store.getBytes(key("copy/source")).data(), "the source stays");

    ObjectInfo changed = store.put(key("copy/source"), Payload.of(bytes("changed")), WriteCondition.none());
    ObjectChangedException refused = assertThrows(ObjectChangedException.class,
        () -> store.copy(key("copy/source"), source.etag(), key("copy/other")));
    assertEquals(source.etag(), refused.expectedEtag());
    assertFalse(store.head(key("copy/other")).isPresent(), "a refused copy writes nothing");
    store.copy(key("copy/source"), null, key("copy/other"));
    assertArrayEquals(bytes("changed"), store.getBytes(key("copy/other")).data(), "without a condition: as it is");
    store.delete(key("copy/other"));
    store.delete(key("copy/source"));
    assertThrows(FileNotFoundException.class, () -> store.copy(key("copy/source"), changed.etag(),
        key("copy/other")));
    assertFalse(store.head(key("copy/other")).isPresent());
  }

  @Test
  void aConditionalDeleteDeletesOnlyTheObjectMeant() throws Exception {
    String k = key("cdelete/k");
    ObjectInfo first = store.put(k, Payload.of(bytes("first")), WriteCondition.none());
    ObjectInfo second = store.put(k, Payload.of(bytes("second")), WriteCondition.none());
    if (!store.conditionalDeletes("the contract test", ProbeSite.under(prefix))) {
      // a store without conditional deletes (LocalStack 2026.3.0 answers 501): a conditional delete is refused,
      // never sent without its condition, and the object stays; components then delete unconditionally
      assertThrows(IOException.class, () -> store.delete(k, second.etag()));
      assertArrayEquals(bytes("second"), store.getBytes(k).data(), "a refused conditional delete keeps the object");
      store.delete(k);
      return;
    }
    ObjectChangedException refused = assertThrows(ObjectChangedException.class, () -> store.delete(k, first.etag()));
    assertEquals(first.etag(), refused.expectedEtag());
    assertArrayEquals(bytes("second"), store.getBytes(k).data(), "a stale ETag deletes nothing: the newer object stays");
    store.delete(k, second.etag());
    assertFalse(store.head(k).isPresent(), "the current ETag deletes");
    store.delete(k, second.etag()); // a missing object counts as deleted
    store.put(k, Payload.of(bytes("third")), WriteCondition.none());
    store.delete(k, null);
    assertFalse(store.head(k).isPresent(), "a null ETag deletes unconditionally");
  }

  @Test
  void aRangedReadPinnedToAnEtagReadsThatObjectOrFailsOnceItIsReplaced() throws Exception {
    ObjectInfo first = store.put(key("pinned/obj"), Payload.of(bytes("0123456789")), WriteCondition.none());
    try (InputStream in = store.open(key("pinned/obj"), 2, 6, first.etag())) {
      assertArrayEquals(bytes("2345"), in.readAllBytes(), "the current ETag: the range's bytes");
    }
    try (InputStream in = store.open(key("pinned/obj"), 8, -1, first.etag())) {
      assertArrayEquals(bytes("89"), in.readAllBytes(), "to the end, pinned");
    }
    store.put(key("pinned/obj"), Payload.of(bytes("abcdefghij")), WriteCondition.none());
    ObjectChangedException refused = assertThrows(ObjectChangedException.class,
        () -> store.open(key("pinned/obj"), 2, 6, first.etag()).close());
    assertEquals(first.etag(), refused.expectedEtag());
    assertTrue(refused.getMessage().contains(key("pinned/obj")), refused.getMessage());
    try (InputStream in = store.open(key("pinned/obj"), 2, 6, null)) {
      assertArrayEquals(bytes("cdef"), in.readAllBytes(), "without a condition: the object as it is");
    }
    store.delete(key("pinned/obj"));
    assertThrows(FileNotFoundException.class, () -> store.open(key("pinned/obj"), 0, 4, first.etag()).close());
  }

  @Test
  void aListingStartsAfterTheGivenKey() throws Exception {
    for (String k : List.of("a/1", "a/2", "a/3", "a/b/3", "a/c/4", "a/c/5", "b")) {
      store.put(key(k), Payload.of(bytes(k)), WriteCondition.none());
    }
    ListPage page = store.list(key("a/"), "/", key("a/2"), null, 1000);
    assertEquals(List.of(key("a/3")), page.objects().stream().map(ObjectInfo::key).collect(Collectors.toList()));
    assertEquals(List.of(key("a/b/"), key("a/c/")), page.prefixes());
    ListPage inPrefix = store.list(key("a/"), "/", key("a/c/4"), null, 1000);
    assertEquals(List.of(), inPrefix.objects(), "nothing after a/c/4 but a/c/5, rolled up");
    assertEquals(List.of(key("a/c/")), inPrefix.prefixes());
    assertEquals(List.of(key("a/1"), key("a/2")), store.list(key("a/"), null, key("0"), null, 2).objects().stream()
        .map(ObjectInfo::key).collect(Collectors.toList()), "a start before the prefix: from the prefix");
    assertEquals(List.of(), store.list(key("a/"), null, key("a/z"), null, 10).objects(), "a start past the prefix");

    List<String> paged = new ArrayList<>();
    String token = null;
    do {
      ListPage p = store.list(key("a/"), null, key("a/2"), token, 2);
      p.objects().forEach(o -> paged.add(o.key()));
      token = p.nextToken().orElse(null);
    } while (token != null);
    assertEquals(List.of(key("a/3"), key("a/b/3"), key("a/c/4"), key("a/c/5")), paged,
        "the pages after the first go on from their token");
  }

  @Test
  void keysAreOrderedByTheirUtf8Bytes() throws Exception {
    // UTF-8 order puts U+FF21 before U+1D11E; Java's UTF-16 String order puts it after
    List<String> names = List.of("B", "a", "\u00e9", "\uff21", "\ud834\udd1e");
    for (String n : names) {
      store.put(key("u/" + n), Payload.of(bytes(n)), WriteCondition.none());
    }
    List<String> listed = store.list(key("u/"), null, null, 1000).objects().stream().map(ObjectInfo::key)
        .collect(Collectors.toList());
    assertEquals(names.stream().map(n -> key("u/" + n)).collect(Collectors.toList()), listed);
  }

  // ------------------------------------------------------------------------------------------- delete

  @Test
  void aBatchDeleteSendsOneRequestPerThousandKeys() throws Exception {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 1001; i++) {
      keys.add(key(String.format("d/%04d", i)));
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      for (Future<?> f : pool.invokeAll(keys.stream().map(k -> (Callable<ObjectInfo>) () ->
          store.put(k, Payload.of(new byte[] {1}), WriteCondition.none())).collect(Collectors.toList()))) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    keys.add(key("d/never-written"));
    StoreStatistics.Snapshot before = store.statistics().snapshot();
    assertEquals(1002, store.deleteBatch(keys));
    assertEquals(2, store.statistics().snapshot().minus(before).count(OP_DELETE_BULK));
    assertEquals(List.of(), store.list(key("d/"), null, null, 1000).objects());
    assertEquals(0, store.deleteBatch(List.of()));
  }

  // ---------------------------------------------------------------------------------------- multipart

  @Test
  void aMultipartUploadAppearsWholeOnCompletionWithTheMultipartEtag() throws Exception {
    byte[] data = pattern(5 * MIB + 1000, 7);
    MultipartUpload u = store.initiateMultipartUpload(key("mp"));
    assertEquals(key("mp"), u.key());
    UploadedPart p1 = store.uploadPart(u, 1, Payload.of(data, 0, 5 * MIB));
    UploadedPart p2 = store.uploadPart(u, 2, Payload.of(data, 5 * MIB, 1000));
    assertEquals(md5Hex(data, 0, 5 * MIB), p1.etag(), "a part's ETag is the MD5 of its bytes");
    assertEquals(List.of(u), store.listMultipartUploads(key("mp")));
    assertEquals(Optional.empty(), store.head(key("mp")), "nothing visible before completion");

    ObjectInfo done = store.completeMultipartUpload(u, List.of(p2, p1), WriteCondition.ifAbsent());
    String expected = multipartEtag(List.of(md5Hex(data, 0, 5 * MIB), md5Hex(data, 5 * MIB, data.length)));
    assertEquals(expected, done.etag());
    assertEquals(data.length, done.size());
    assertEquals(expected, store.head(key("mp")).orElseThrow().etag());
    assertArrayEquals(data, store.getBytes(key("mp")).data());
    assertEquals(List.of(), store.listMultipartUploads(key("mp")));
    store.abortMultipartUpload(u); // gone already: succeeds
  }

  @Test
  void aConditionalCompletionIsRefusedAndTheUploadStaysOpenUntilAborted() throws Exception {
    ObjectInfo existing = store.put(key("mpc"), Payload.of(bytes("existing")), WriteCondition.none());
    MultipartUpload u = store.initiateMultipartUpload(key("mpc"));
    UploadedPart p = store.uploadPart(u, 1, Payload.of(bytes("new content")));
    assertThrows(FileAlreadyExistsException.class,
        () -> store.completeMultipartUpload(u, List.of(p), WriteCondition.ifAbsent()));
    String stale = "0123456789abcdef0123456789abcdef";
    assertThrows(ObjectChangedException.class,
        () -> store.completeMultipartUpload(u, List.of(p), WriteCondition.ifMatch(stale)));
    assertArrayEquals(bytes("existing"), store.getBytes(key("mpc")).data(),
        "refused completions changed nothing");
    assertEquals(List.of(u), store.listMultipartUploads(key("mpc")), "the refused upload is still open");

    ObjectInfo done = store.completeMultipartUpload(u, List.of(p), WriteCondition.ifMatch(existing.etag()));
    assertArrayEquals(bytes("new content"), store.getBytes(key("mpc")).data());
    assertEquals(done.etag(), store.head(key("mpc")).orElseThrow().etag());

    MultipartUpload other = store.initiateMultipartUpload(key("mpc-missing"));
    UploadedPart q = store.uploadPart(other, 1, Payload.of(bytes("x")));
    assertThrows(FileNotFoundException.class,
        () -> store.completeMultipartUpload(other, List.of(q), WriteCondition.ifMatch(done.etag())));
    store.abortMultipartUpload(other);
    assertEquals(List.of(), store.listMultipartUploads(key("mpc")));
    assertThrows(FileNotFoundException.class,
        () -> store.completeMultipartUpload(other, List.of(q), WriteCondition.none()), "an aborted upload");
  }

  @Test
  void aLargePutIsAMultipartUpload() throws Exception {
    byte[] data = pattern(6 * MIB, 3);
    store.capabilities(); // a probe, if the store makes one, is not part of what is counted below
    StoreStatistics.Snapshot before = store.statistics().snapshot();
    ObjectInfo put = store.put(key("big"), Payload.of(data), WriteCondition.ifAbsent());
    StoreStatistics.Snapshot used = store.statistics().snapshot().minus(before);
    assertEquals(1, used.count(OP_MULTIPART_INITIATE), used.toString());
    assertEquals(2, used.count(OP_MULTIPART_PART), used.toString());
    assertEquals(1, used.count(OP_MULTIPART_COMPLETE), used.toString());
    assertEquals(0, used.count(OP_PUT) + used.count(OP_PUT_CONDITIONAL), used.toString());
    String expected = multipartEtag(List.of(md5Hex(data, 0, 5 * MIB), md5Hex(data, 5 * MIB, data.length)));
    assertEquals(expected, put.etag());
    assertArrayEquals(data, store.getBytes(key("big")).data());
    assertThrows(FileAlreadyExistsException.class,
        () -> store.put(key("big"), Payload.of(data), WriteCondition.ifAbsent()));
    assertEquals(List.of(), store.listMultipartUploads(key("big")), "the refused upload was aborted");
  }

  // --------------------------------------------------------------------------------------- statistics

  @Test
  void statisticsCountEachRequestUnderItsOperation() throws Exception {
    store.capabilities(); // a probe, if the store makes one, is not part of what is counted below
    StoreStatistics.Snapshot before = store.statistics().snapshot();
    store.put(key("st"), Payload.of(bytes("1")), WriteCondition.none());
    store.put(key("st2"), Payload.of(bytes("2")), WriteCondition.ifAbsent());
    store.getBytes(key("st"));
    store.head(key("st"));
    store.head(key("st-missing"));
    store.head(key("st-missing-too"));
    store.list(key(""), "/", null, 10);
    StoreStatistics.Snapshot used = store.statistics().snapshot().minus(before);
    assertEquals(1, used.count(OP_PUT), used.toString());
    assertEquals(1, used.count(OP_PUT_CONDITIONAL), used.toString());
    assertEquals(1, used.count(OP_GET), used.toString());
    assertEquals(3, used.count(OP_HEAD), used.toString());
    assertEquals(2, used.get(OP_HEAD).failures, "a 404 is a failed request: " + used);
    assertEquals(1, used.count(OP_HEAD_BUCKET), "the bucket is checked once, after the first 404: " + used);
    assertEquals(1, used.count(OP_LIST), used.toString());
    assertEquals(8, used.totalRequests(), used.toString());
    assertEquals(1, used.get(OP_PUT).bytes);
  }

  @Test
  void aClosedStoreRefusesRequests() throws Exception {
    store.close();
    IOException e = assertThrows(IOException.class, () -> store.head(key("any")));
    assertFalse(e instanceof FileNotFoundException, e.toString());
  }
}
