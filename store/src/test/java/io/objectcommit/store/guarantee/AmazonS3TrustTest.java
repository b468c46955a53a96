package io.objectcommit.store.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoreCapabilities;
import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The decision, asserted without a network: with {@code detect}, a store recognised as Amazon S3 is trusted, so a
 * component relying on every guarantee, and conditional writes (small and large), send the bucket nothing but their
 * own requests and the check is never opened; {@code check} checks Amazon S3 too; any other endpoint is checked.
 * The bucket is an in-memory one that counts every request, as the fault proxy does.
 */
class AmazonS3TrustTest {

  private static final long THRESHOLD = 5L << 20;
  private static final String WHERE = "bucket 'lake' at the endpoint of the test";

  private final InMemoryObjectStore bucket = InMemoryObjectStore.create("lake", conf());
  private final AtomicInteger checksOpened = new AtomicInteger();

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.set(StoreConstants.MULTIPART_THRESHOLD, Long.toString(THRESHOLD));
    return conf;
  }

  private GuardedObjectStore guarded(GuaranteeSettings.Mode mode, AmazonS3Endpoint endpoint,
      StoreGuarantees verdicts) {
    return new GuardedObjectStore(bucket.newStore(conf()), new GuaranteeSettings(mode), verdicts, WHERE,
        THRESHOLD, () -> {
          checksOpened.incrementAndGet();
          return bucket.newStore(conf());
        }, endpoint);
  }

  /** What a component does first, then a small and a large conditional write: all the guarantees are asked for. */
  private static void useLikeAComponent(ObjectStore store) throws Exception {
    store.requireGuarantees(StoreGuarantee.ofWrites(), "the direct committer",
        ProbeSite.under("team-a/out/_objectcommit_direct/probe/"));
    String etag = store.createExclusive("team-a/out/_objectcommit_direct/job/tasks/m-000000.json",
        Payload.of(new byte[10])).etag();
    store.replaceIfMatch("team-a/out/_objectcommit_direct/job/tasks/m-000000.json", Payload.of(new byte[11]), etag);
    store.createExclusive("team-a/out/part-00000.parquet", Payload.of(new byte[(int) THRESHOLD]));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(strings = {
      "",
      "https://s3.amazonaws.com",
      "https://s3-external-1.amazonaws.com",
      "https://s3.eu-west-1.amazonaws.com",
      "https://s3-eu-west-1.amazonaws.com",
      "https://s3.dualstack.eu-west-1.amazonaws.com",
      "https://s3-fips.us-east-1.amazonaws.com",
      "https://s3-fips.dualstack.us-gov-west-1.amazonaws.com",
      "https://s3.cn-north-1.amazonaws.com.cn",
      "https://s3.us-gov-east-1.amazonaws.com",
      "https://team-a-123456789012.s3-accesspoint.eu-west-1.amazonaws.com",
      "https://s3express-euw1-az1.eu-west-1.amazonaws.com",
      "https://bucket.vpce-1a2b3c4d-5e6f.s3.eu-west-1.vpce.amazonaws.com",
  })
  void amazonS3IsTrustedWithoutARequest(String endpoint) throws Exception {
    AmazonS3Endpoint s3 = AmazonS3Endpoint.of(endpoint.isEmpty() ? null : endpoint, "lake", k -> null, k -> null);
    StoreGuarantees verdicts = new StoreGuarantees();
    try (GuardedObjectStore store = guarded(GuaranteeSettings.Mode.DETECT, s3, verdicts)) {
      useLikeAComponent(store);
      assertEquals(StoreCapabilities.ConditionalWrites.DOCUMENTED, store.capabilities().conditionalWrites());
    }
    assertEquals(0, checksOpened.get(), "the check never ran");
    // the caller's own requests and nothing else: 2 conditional PUTs, a multipart upload of 1 part (3)
    assertEquals(2, bucket.counts().of(S3Operation.PUT), bucket.counts().toString());
    assertEquals(1, bucket.counts().of(S3Operation.MULTIPART_INITIATE), bucket.counts().toString());
    assertEquals(1, bucket.counts().of(S3Operation.MULTIPART_COMPLETE), bucket.counts().toString());
    assertEquals(1, bucket.counts().of(S3Operation.MULTIPART_PART), bucket.counts().toString());
    assertEquals(5, bucket.counts().total(), bucket.counts().toString());
    assertFalse(verdicts.trustAmazonS3(WHERE, s3), "the INFO line was logged once, for the first need");
  }

  @Test
  void theInfoLineSaysWhyAndHowToCheck() {
    AmazonS3Endpoint s3 = AmazonS3Endpoint.of("https://s3-fips.us-east-1.amazonaws.com", "lake", k -> null,
        k -> null);
    String line = StoreGuarantees.trustMessage(WHERE, s3);
    assertTrue(line.contains(WHERE) && line.contains("Amazon S3") && line.contains("a FIPS endpoint")
        && line.contains("https://s3-fips.us-east-1.amazonaws.com")
        && line.contains("fs.objectcommit.conditional-writes=check"), line);
    StoreGuarantees verdicts = new StoreGuarantees();
    assertTrue(verdicts.trustAmazonS3(WHERE, s3));
    assertFalse(verdicts.trustAmazonS3(WHERE, s3), "once per store");
    assertTrue(verdicts.trustAmazonS3("another store", s3));
  }

  @Test
  void checkChecksAmazonS3Too() throws Exception {
    AmazonS3Endpoint s3 = AmazonS3Endpoint.of("https://s3.eu-west-1.amazonaws.com", "lake", k -> null, k -> null);
    try (GuardedObjectStore store = guarded(GuaranteeSettings.Mode.CHECK, s3, new StoreGuarantees())) {
      useLikeAComponent(store);
      assertEquals(StoreCapabilities.ConditionalWrites.VERIFIED, store.capabilities().conditionalWrites());
    }
    assertEquals(1, checksOpened.get(), "one check of every guarantee");
    assertTrue(bucket.counts().total() > 100, "the check's requests: " + bucket.counts());
    assertEquals(0, bucket.keys("team-a/out/_objectcommit_direct/probe/").size(), "and it cleaned up");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"http://127.0.0.1:4566", "https://minio-1234567890.us-east-1.elb.amazonaws.com"})
  void anyOtherStoreIsChecked(String endpoint) throws Exception {
    AmazonS3Endpoint other = AmazonS3Endpoint.of(endpoint, "lake", k -> null, k -> null);
    try (GuardedObjectStore store = guarded(GuaranteeSettings.Mode.DETECT, other, new StoreGuarantees())) {
      useLikeAComponent(store);
      assertEquals(StoreCapabilities.ConditionalWrites.VERIFIED, store.capabilities().conditionalWrites());
    }
    assertEquals(1, checksOpened.get());
    assertTrue(bucket.counts().total() > 100, bucket.counts().toString());
  }
}
