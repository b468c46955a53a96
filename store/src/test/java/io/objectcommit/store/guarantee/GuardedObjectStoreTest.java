package io.objectcommit.store.guarantee;

import static io.objectcommit.store.impl.FakeS3.fail;
import static io.objectcommit.store.impl.FakeS3.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.s3.model.DeleteObjectsResult;
import com.amazonaws.services.s3.model.HeadBucketResult;
import com.amazonaws.services.s3.model.ObjectMetadata;
import com.amazonaws.services.s3.model.PutObjectRequest;
import com.amazonaws.services.s3.model.PutObjectResult;
import io.objectcommit.store.ConditionalWritesUnsupportedException;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoreCapabilities;
import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.impl.FakeS3;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.junit.jupiter.api.Test;

/**
 * The guarantee policy around a store that sends conditions as given: what each mode sends, the refusal of a store
 * that fails a guarantee a component relies on (checked once per verdict cache, through another store whose
 * requests are not the caller's), on the S3 store with a scripted client and on in-memory stores broken the way
 * real ones are.
 */
class GuardedObjectStoreTest {

  private static final String PREFIX = ".objectcommit/probe/";
  private static final String WHERE = "s3://b on moto";
  private static final long THRESHOLD = 5L << 20;

  // ------------------------------------------------------------------------- on the S3 store (scripted)

  private final FakeS3Stores stores = new FakeS3Stores();
  private final FakeS3 s3 = stores.s3;

  private static PutObjectResult putResult(String etag) {
    PutObjectResult r = new PutObjectResult();
    r.setETag(etag);
    return r;
  }

  @Test
  void emulatedExclusiveCreateChecksWithHeadAndWritesUnconditionally() throws Exception {
    ObjectMetadata md = new ObjectMetadata();
    md.setHeader("ETag", "\"e\"");
    md.setContentLength(3);
    s3.on("getObjectMetadata", value(md));
    ObjectStore store = stores.open(GuaranteeSettings.Mode.EMULATE);
    assertThrows(FileAlreadyExistsException.class, () -> store.createExclusive("k", Payload.of(new byte[1])));
    assertEquals(0, s3.count("putObject"));

    s3.replace("getObjectMetadata", fail(404, "404 Not Found"));
    s3.on("headBucket", value(new HeadBucketResult()));
    s3.on("putObject", value(putResult("e2")));
    store.createExclusive("k2", Payload.of(new byte[1]));
    assertNull(s3.requests("putObject", PutObjectRequest.class).get(0).getCustomRequestHeaders(),
        "no If-None-Match header in emulation");
    assertEquals(StoreCapabilities.ConditionalWrites.EMULATED, store.capabilities().conditionalWrites());
    assertEquals(2, store.statistics().snapshot().count("op_head"), "the emulating HEADs are the caller's requests");
  }

  @Test
  void detectionRefusesAStoreThatIgnoresConditionalWritesAndRemembersIt() {
    s3.on("putObject", value(putResult("e")));
    s3.on("deleteObjects", value(new DeleteObjectsResult(List.of())));
    ObjectStore store = stores.open(GuaranteeSettings.Mode.DETECT);
    ConditionalWritesUnsupportedException e = assertThrows(ConditionalWritesUnsupportedException.class,
        () -> store.createExclusive("k", Payload.of(new byte[1])));
    assertTrue(e.getMessage().contains("http://fake.invalid:1"), e.getMessage());
    assertTrue(e.getMessage().contains("fs.objectcommit.conditional-writes=emulate"), e.getMessage());
    assertEquals(2, s3.count("putObject"), "two probe PUTs, and not the write itself");
    assertEquals(1, s3.count("deleteObjects"), "the probe object is removed");
    assertEquals(0, store.statistics().snapshot().totalRequests(), "the check's requests are not the caller's");
    assertThrows(ConditionalWritesUnsupportedException.class,
        () -> stores.open(GuaranteeSettings.Mode.DETECT).createExclusive("k", Payload.of(new byte[1])));
    assertEquals(2, s3.count("putObject"), "probed once per bucket and endpoint");
  }

  @Test
  void detectionVerifiesAConformingStoreOnce() throws Exception {
    s3.on("putObject", value(putResult("p1")), fail(412, "PreconditionFailed"), value(putResult("real")));
    s3.on("getObject", ConditionalWritesProbeTest.checkObjectUnchanged());
    s3.on("deleteObjects", value(new DeleteObjectsResult(List.of())));
    ObjectStore store = stores.open(GuaranteeSettings.Mode.DETECT);
    assertEquals("real", store.createExclusive("k", Payload.of(new byte[1])).etag());
    assertEquals(StoreCapabilities.ConditionalWrites.VERIFIED, store.capabilities().conditionalWrites());
    assertEquals(3, s3.count("putObject"));
    assertEquals(1, s3.count("getObject"), "the check's one GET");
    assertFalse(s3.requests("putObject", PutObjectRequest.class).get(0).getKey().equals("k"));
    assertEquals(1, store.statistics().snapshot().totalRequests(), "the caller's one PUT, not the check's");
  }

  // ---------------------------------------------------------------------- on in-memory stores (broken)

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.set(StoreConstants.MULTIPART_THRESHOLD, Long.toString(THRESHOLD));
    return conf;
  }

  /** As moto 5.2.5: ignores If-Match on CompleteMultipartUpload. */
  private static ObjectStore moto(ObjectStore inner) {
    return new BrokenStore(inner) {
      @Override
      public ObjectInfo completeMultipartUpload(MultipartUpload u, List<UploadedPart> p, WriteCondition c)
          throws IOException {
        return super.completeMultipartUpload(u, p, c.kind() == WriteCondition.Kind.IF_MATCH ? WriteCondition.none()
            : c);
      }
    };
  }

  /** A guarded store on the moto-like bucket, checked through another store on it (own statistics). */
  private static GuardedObjectStore onMoto(InMemoryObjectStore bucket, StoreGuarantees verdicts) {
    return new GuardedObjectStore(moto(bucket.newStore(conf())), new GuaranteeSettings(GuaranteeSettings.Mode.DETECT,
        PREFIX), verdicts, WHERE, THRESHOLD, () -> moto(bucket.newStore(conf())));
  }

  @Test
  void aComponentIsRefusedOnceForAFailedGuaranteeAndTheCheckIsNotItsRequests() throws Exception {
    InMemoryObjectStore bucket = InMemoryObjectStore.create("b", conf());
    StoreGuarantees verdicts = new StoreGuarantees();
    GuardedObjectStore store = onMoto(bucket, verdicts);
    StoreGuaranteeException e = assertThrows(StoreGuaranteeException.class, () -> store.requireGuarantees(
        EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT, StoreGuarantee.IF_MATCH_COMPLETE), "component B"));
    assertEquals(Set.of(StoreGuarantee.IF_MATCH_COMPLETE), e.failedGuarantees());
    assertEquals("b", e.bucket());
    assertTrue(e.getMessage().contains("component B") && e.getMessage().contains(WHERE)
        && e.getMessage().contains("docs/stores.md"), e.getMessage());
    assertEquals(0, store.statistics().snapshot().totalRequests(), "the check's requests are its own store's");
    long checked = bucket.counts().total();
    assertTrue(checked > 0, "the check ran on the bucket");
    assertEquals(List.of(), bucket.keys(""), "and left nothing");

    // another store sharing the verdicts is refused without a request; a store with verdicts of its own checks
    assertThrows(StoreGuaranteeException.class, () -> onMoto(bucket, verdicts).requireGuarantees(
        EnumSet.of(StoreGuarantee.IF_MATCH_COMPLETE), "component C"));
    assertEquals(checked, bucket.counts().total());
    assertThrows(StoreGuaranteeException.class, () -> onMoto(bucket, new StoreGuarantees()).requireGuarantees(
        EnumSet.of(StoreGuarantee.IF_MATCH_COMPLETE), "component C"));
    assertTrue(bucket.counts().total() > checked, "checked again for another verdict cache");
  }

  @Test
  void aConditionalWriteThatMayBeMultipartAlsoNeedsTheCompletionGuarantee() throws Exception {
    InMemoryObjectStore bucket = InMemoryObjectStore.create("b", conf());
    GuardedObjectStore store = onMoto(bucket, new StoreGuarantees());
    String etag = store.createExclusive("k", Payload.of(new byte[10])).etag();
    etag = store.replaceIfMatch("k", Payload.of(new byte[11]), etag).etag();
    String current = etag;
    StoreGuaranteeException large = assertThrows(StoreGuaranteeException.class,
        () -> store.replaceIfMatch("k", Payload.of(new byte[(int) THRESHOLD]), current));
    assertEquals(Set.of(StoreGuarantee.IF_MATCH_COMPLETE), large.failedGuarantees());
    assertTrue(large.getMessage().contains("a conditional multipart write"), large.getMessage());
    assertThrows(StoreGuaranteeException.class, () -> store.put("k",
        Payload.of(new ByteArrayInputStream(new byte[12]), -1), WriteCondition.ifMatch(current)),
        "a stream of unknown length may become a multipart upload");
    assertArrayEquals(new byte[11], bucket.bytes("k"), "nothing written after the refusals");
  }

  private static GuardedObjectStore guarded(InMemoryObjectStore bucket, GuaranteeSettings.Mode mode,
      StoreGuarantees verdicts) {
    return new GuardedObjectStore(bucket.newStore(conf()), new GuaranteeSettings(mode, PREFIX), verdicts, WHERE,
        THRESHOLD, () -> bucket.newStore(conf()));
  }

  @Test
  void conditionalDeletesAreAskedAboutOnceAndAStoreWithoutThemIsNoRefusal() throws Exception {
    InMemoryObjectStore bucket = InMemoryObjectStore.create("b", conf());
    StoreGuarantees verdicts = new StoreGuarantees();
    GuardedObjectStore store = guarded(bucket, GuaranteeSettings.Mode.DETECT, verdicts);
    assertTrue(store.conditionalDeletes("gc", ProbeSite.under("team-a/")));
    assertEquals(5, bucket.counts().total(), "the check: PUT, refused DELETE, GET, DELETE, cleanup: "
        + bucket.counts());
    assertEquals(0, store.statistics().snapshot().totalRequests(), "the check's requests are its own store's");
    assertTrue(guarded(bucket, GuaranteeSettings.Mode.DETECT, verdicts).conditionalDeletes("gc",
        ProbeSite.under("team-a/")));
    assertEquals(5, bucket.counts().total(), "asked once per verdict cache");
    String etag = store.put("k", Payload.of(new byte[1]), WriteCondition.none()).etag();
    store.put("k", Payload.of(new byte[2]), WriteCondition.none());
    assertThrows(ObjectChangedException.class, () -> store.delete("k", etag));
    assertArrayEquals(new byte[2], bucket.bytes("k"), "the newer object stays");

    InMemoryObjectStore likeLocalStack = InMemoryObjectStore.create("b", conf());
    likeLocalStack.setConditionalDeletes(false);
    GuardedObjectStore without = guarded(likeLocalStack, GuaranteeSettings.Mode.DETECT, new StoreGuarantees());
    assertFalse(without.conditionalDeletes("gc", ProbeSite.under("team-a/")), "an answer, not a refusal");
    assertEquals(List.of(), likeLocalStack.keys(""), "the check left nothing");
    long checked = likeLocalStack.counts().total();
    likeLocalStack.setConditionalDeletes(true);
    without.put("k", Payload.of(new byte[1]), WriteCondition.none());
    assertThrows(StoreGuaranteeException.class, () -> without.delete("k", "e"),
        "a conditional delete asked of it anyway is refused, never sent without its condition");
    assertEquals(checked + 1, likeLocalStack.counts().total(), "only the PUT: " + likeLocalStack.counts());
    assertTrue(likeLocalStack.exists("k"));

    assertFalse(guarded(bucket, GuaranteeSettings.Mode.EMULATE, new StoreGuarantees()).conditionalDeletes("gc",
        ProbeSite.under("team-a/")));
    assertFalse(guarded(bucket, GuaranteeSettings.Mode.ASSUME, new StoreGuarantees()).conditionalDeletes("gc",
        ProbeSite.under("team-a/")), "assume: not checked, so not used (but trusted on Amazon S3)");
  }

  @Test
  void assumeSendsConditionsAsGivenAndChecksNothing() throws Exception {
    InMemoryObjectStore bucket = InMemoryObjectStore.create("b", conf());
    GuardedObjectStore store = new GuardedObjectStore(bucket.newStore(conf()), new GuaranteeSettings(
        GuaranteeSettings.Mode.ASSUME, PREFIX), new StoreGuarantees(), WHERE, THRESHOLD, () -> {
          throw new AssertionError("no check with assume");
        });
    assertEquals(StoreCapabilities.ConditionalWrites.ASSUMED, store.capabilities().conditionalWrites());
    store.requireGuarantees(StoreGuarantee.ofWrites(), "component A");
    store.createExclusive("k", Payload.of(new byte[1]));
    assertThrows(FileAlreadyExistsException.class, () -> store.createExclusive("k", Payload.of(new byte[2])),
        "refused by the store itself");
    assertEquals(2, bucket.counts().total(), "the two PUTs: " + bucket.counts());
    assertEquals(2, bucket.counts().conditional(S3Operation.PUT));
  }

  @Test
  void emulateIsRefusedForAComponentThatReliesOnCompareAndSwap() throws Exception {
    InMemoryObjectStore inner = InMemoryObjectStore.create("b");
    GuardedObjectStore store = new GuardedObjectStore(inner, new GuaranteeSettings(GuaranteeSettings.Mode.EMULATE,
        PREFIX), new StoreGuarantees(), "s3://b at E", THRESHOLD, () -> {
          throw new AssertionError("no check with emulate");
        });
    EmulationRefusedException e = assertThrows(EmulationRefusedException.class, () -> store.requireGuarantees(
        EnumSet.of(StoreGuarantee.IF_MATCH_PUT, StoreGuarantee.ATOMIC_COMPARE_AND_SWAP), "checkpoint-fs (ckpt://)"));
    assertEquals("checkpoint-fs (ckpt://)", e.component());
    assertEquals(StoreConstants.CONDITIONAL_WRITES, e.setting());
    assertEquals("s3://b/", e.getPath().toString());
    assertTrue(e.getMessage().contains("checkpoint-fs (ckpt://)") && e.getMessage().contains("s3://b at E")
        && e.getMessage().contains(StoreConstants.CONDITIONAL_WRITES + "=emulate")
        && e.getMessage().contains("ATOMIC_COMPARE_AND_SWAP"), e.getMessage());
    // a component whose races Spark's commit coordinator keeps apart runs, with the warning; nothing is checked
    store.requireGuarantees(EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT, StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE),
        "the staging committer");
    assertEquals(0, inner.statistics().snapshot().totalRequests());
  }

  @Test
  void aClosedStoreIsRefusedBeforeAnyCheck() throws Exception {
    InMemoryObjectStore bucket = InMemoryObjectStore.create("b", conf());
    GuardedObjectStore store = onMoto(bucket, new StoreGuarantees());
    store.close();
    store.close();
    IOException e = assertThrows(IOException.class, () -> store.requireGuarantees(
        EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT), "component A"));
    assertTrue(e.getMessage().contains("store is closed"), e.getMessage());
    assertThrows(IOException.class, () -> store.createExclusive("k", Payload.of(new byte[1])));
    assertEquals(0, bucket.counts().total(), "no check of a closed store");
  }
}
