package io.objectcommit.store.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.ActionDeniedException;
import io.objectcommit.store.ForwardingObjectStore;
import io.objectcommit.store.ListPage;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.StoredBytes;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * Where the check writes: under the site the component names (so that a job allowed to write only its own prefix
 * passes it), beside the key of a conditional write through the store alone, under
 * {@value StoreConstants#PROBE_PREFIX} when the user sets it; never a request on the bucket itself. The bucket is an
 * in-memory one behind a stand-in for a prefix-scoped IAM policy: every request on a key outside {@code team-a/}
 * is refused as S3 refuses it ({@link ActionDeniedException}).
 */
class ProbeSiteTest {

  private static final String WHERE = "bucket 'lake' at the endpoint of the test";
  private static final Set<StoreGuarantee> ALL = StoreGuarantee.ofWrites();

  private final InMemoryObjectStore bucket = InMemoryObjectStore.create("lake", new Configuration(false));
  /** Every key the check's store was asked to touch. */
  private final Set<String> touched = ConcurrentHashMap.newKeySet();

  /** The store of a job whose policy grants the object actions on {@code lake/team-a/*} only. */
  private final class TeamA extends ForwardingObjectStore {
    TeamA() {
      super(bucket.newStore(new Configuration(false)));
    }

    private void allowed(String key, String action) throws IOException {
      touched.add(key);
      if (!key.startsWith("team-a/")) {
        throw new ActionDeniedException(pathOf(key), "lake", key, action, "s3:... refused by the test's policy");
      }
    }

    @Override
    public ObjectInfo put(String key, Payload payload, WriteCondition condition) throws IOException {
      allowed(key, "s3:PutObject");
      return super.put(key, payload, condition);
    }

    @Override
    public StoredBytes getBytes(String key) throws IOException {
      allowed(key, "s3:GetObject");
      return super.getBytes(key);
    }

    @Override
    public Optional<StoredBytes> getBytesIfChanged(String key, String etag) throws IOException {
      allowed(key, "s3:GetObject");
      return super.getBytesIfChanged(key, etag);
    }

    @Override
    public InputStream open(String key, long start, long end, String ifMatchEtag) throws IOException {
      allowed(key, "s3:GetObject");
      return super.open(key, start, end, ifMatchEtag);
    }

    @Override
    public Optional<ObjectInfo> head(String key) throws IOException {
      allowed(key, "s3:GetObject");
      return super.head(key);
    }

    @Override
    public ListPage list(String prefix, String delimiter, String token, int maxKeys) throws IOException {
      throw new AssertionError("the check lists nothing");
    }

    @Override
    public void delete(String key) throws IOException {
      allowed(key, "s3:DeleteObject");
      super.delete(key);
    }

    @Override
    public int deleteBatch(Collection<String> keys) throws IOException {
      for (String k : keys) {
        allowed(k, "s3:DeleteObject");
      }
      return super.deleteBatch(keys);
    }

    @Override
    public MultipartUpload initiateMultipartUpload(String key) throws IOException {
      allowed(key, "s3:PutObject");
      return super.initiateMultipartUpload(key);
    }

    @Override
    public UploadedPart uploadPart(MultipartUpload upload, int partNumber, Payload part) throws IOException {
      allowed(upload.key(), "s3:PutObject");
      return super.uploadPart(upload, partNumber, part);
    }

    @Override
    public ObjectInfo completeMultipartUpload(MultipartUpload upload, List<UploadedPart> parts,
        WriteCondition condition) throws IOException {
      allowed(upload.key(), "s3:PutObject");
      return super.completeMultipartUpload(upload, parts, condition);
    }

    @Override
    public void abortMultipartUpload(MultipartUpload upload) throws IOException {
      allowed(upload.key(), "s3:AbortMultipartUpload");
      super.abortMultipartUpload(upload);
    }

    @Override
    public List<MultipartUpload> listMultipartUploads(String prefix) throws IOException {
      throw new AssertionError("the check lists no uploads");
    }
  }

  private GuardedObjectStore guarded(GuaranteeSettings settings) {
    return new GuardedObjectStore(new TeamA(), settings, new StoreGuarantees(), WHERE, 5L << 20, TeamA::new);
  }

  private void assertAllUnder(String prefix) {
    assertFalse(touched.isEmpty(), "the check ran");
    for (String k : touched) {
      assertTrue(k.startsWith(prefix + "check-"), "the check wrote " + k + " outside " + prefix);
    }
    assertEquals(List.of(), bucket.keys(""), "the check deleted what it wrote");
    assertEquals(0, bucket.counts().of(S3Operation.BUCKET), "no request on the bucket: " + bucket.counts());
    assertEquals(0, bucket.counts().of(S3Operation.LIST), bucket.counts().toString());
  }

  @Test
  void theCheckWritesWhereTheComponentWritesAndAPrefixScopedPolicySuffices() throws Exception {
    try (ObjectStore store = guarded(new GuaranteeSettings(GuaranteeSettings.Mode.DETECT))) {
      store.requireGuarantees(ALL, "the direct committer",
          ProbeSite.under("team-a/out/_objectcommit_direct/probe/"));
    }
    assertAllUnder("team-a/out/_objectcommit_direct/probe/");
    assertEquals(0, bucket.counts().of(S3Operation.HEAD), "no HEAD of a missing key: " + bucket.counts());
  }

  @Test
  void aConditionalWriteThroughTheStoreAloneIsCheckedBesideItsKey() throws Exception {
    try (ObjectStore store = guarded(new GuaranteeSettings(GuaranteeSettings.Mode.DETECT))) {
      store.createExclusive("team-a/tables/t1/_lock", Payload.of(new byte[1]));
      store.delete("team-a/tables/t1/_lock");
    }
    touched.remove("team-a/tables/t1/_lock");
    assertAllUnder("team-a/tables/t1/.objectcommit/probe/");
  }

  @Test
  void aSiteDeclaredIsUsedForTheChecksOfLaterWrites() throws Exception {
    try (ObjectStore store = guarded(new GuaranteeSettings(GuaranteeSettings.Mode.DETECT))) {
      store.requireGuarantees(EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT), "checkpoint-fs (ckpt://)",
          ProbeSite.under("team-a/.ckpt/probe/"));
      // a conditional write that may become a multipart upload needs the completion guarantee, checked now
      store.put("team-a/.ckpt/dirs/root.json", Payload.of(new byte[5 << 20]), WriteCondition.ifAbsent());
      store.delete("team-a/.ckpt/dirs/root.json");
    }
    touched.remove("team-a/.ckpt/dirs/root.json");
    assertAllUnder("team-a/.ckpt/probe/");
  }

  @Test
  void aProbePrefixSetByTheUserWinsAndItsRefusalNamesTheKeyAndTheAction() throws Exception {
    try (ObjectStore store = guarded(new GuaranteeSettings(GuaranteeSettings.Mode.DETECT, "shared/probe/"))) {
      ActionDeniedException e = assertThrows(ActionDeniedException.class, () -> store.requireGuarantees(ALL,
          "the staging committer", ProbeSite.under("team-a/out/.objectcommit-staging/probe/")));
      assertEquals("s3:PutObject", e.action());
      assertTrue(e.key().startsWith("shared/probe/check-"), e.key());
      String m = e.getMessage();
      assertTrue(m.contains("s3:PutObject on lake/shared/probe/check-") && m.contains("the staging committer")
          && m.contains("s3://lake/shared/probe/") && m.contains(StoreConstants.PROBE_PREFIX)
          && m.contains(WHERE), m);
      assertFalse(m.contains("check the credentials"), m);
    }
    assertEquals(List.of(), bucket.keys(""));
  }

  @Test
  void aCallerThatNamesNoSiteProbesAtTheFallbackAndIsToldWhatWasRefused() {
    try (ObjectStore store = guarded(new GuaranteeSettings(GuaranteeSettings.Mode.DETECT))) {
      ActionDeniedException e = assertThrows(ActionDeniedException.class,
          () -> store.requireGuarantees(ALL, "a program"));
      assertTrue(e.key().startsWith(StoreConstants.PROBE_PREFIX_FALLBACK + "check-"), e.key());
      assertTrue(e.getMessage().startsWith("s3://lake/" + e.key() + ": a program: checking that " + WHERE),
          e.getMessage());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aSiteIsAKeyPrefix() {
    assertThrows(IllegalArgumentException.class, () -> ProbeSite.under("/team-a/"));
    assertThrows(IllegalArgumentException.class, () -> ProbeSite.under("team-a"));
    assertEquals("x/.objectcommit/probe/", ProbeSite.besideKey("x/k").prefix());
    assertEquals(".objectcommit/probe/", ProbeSite.besideKey("k").prefix());
    assertEquals("initialize ckpt://lake/", ProbeSite.under("").forOperation("initialize ckpt://lake/").operation());
  }
}
