package io.objectcommit.it.stores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.objectcommit.it.SmokeJob;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.direct.DirectCommitters;
import io.objectcommit.it.faults.ObjectCommitCheckpoints;
import io.objectcommit.it.faults.StagingCommitters;
import io.objectcommit.store.guarantee.StoreGuarantee;
import io.objectcommit.store.guarantee.StoreGuaranteeException;
import io.objectcommit.testsupport.S3Endpoints;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3Store;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.SparkCompat;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.Test;

/**
 * What a user of a non-atomic store sees with default settings: a Spark job with the direct or the staging
 * committer, or a streaming query checkpointing to {@code ckpt://}, is refused up front with a
 * {@link StoreGuaranteeException} naming the failed guarantee, and nothing is left in the bucket (the check deletes
 * its own objects). A component whose guarantees the store gives runs (the staging committer on S3Proxy 4.1.0).
 * Runs in the store matrix on S3Proxy and S3Mock (docs/stores.md); skipped on other stores.
 */
@S3IntegrationTest
class SparkStoreRefusalIT {

  private static final long ROWS = 2_000;

  /** The guarantees each component is refused for, per store; a component missing from a map runs. */
  private static final Map<S3Store, Map<String, Set<StoreGuarantee>>> REFUSED = Map.of(
      S3Store.S3PROXY, Map.of(
          "direct", EnumSet.of(StoreGuarantee.ATOMIC_COMPARE_AND_SWAP),
          "ckpt", EnumSet.of(StoreGuarantee.ATOMIC_COMPARE_AND_SWAP)),
      // the check stops at the first failure: the sequential ABORT_KEEPS_EXISTING before the races
      S3Store.S3MOCK, Map.of(
          "direct", EnumSet.of(StoreGuarantee.ABORT_KEEPS_EXISTING),
          "staging", EnumSet.of(StoreGuarantee.ABORT_KEEPS_EXISTING),
          "ckpt", EnumSet.of(StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE)));

  private static Map<String, Set<StoreGuarantee>> expected() {
    S3Store store = S3Endpoints.store();
    assumeTrue(REFUSED.containsKey(store), "refusals are shown on S3Proxy 4.1.0 and S3Mock 5.2.0");
    return REFUSED.get(store);
  }

  @Test
  void theDirectCommitterIsRefusedUpFront(S3TestBucket bucket) throws Exception {
    Map<String, Set<StoreGuarantee>> refused = expected();
    try (SparkSession spark = SparkSessions.local("store-refusal-direct", "local[2]", bucket.s3aOptions(),
        DirectCommitters.parquet().sparkConf())) {
      Throwable e = assertThrows(Throwable.class, () -> SmokeJob.write(spark, bucket.s3a("direct"), ROWS, 4));
      assertRefused(e, refused.get("direct"), "the direct committer");
    }
    assertBucketEmpty(bucket);
  }

  @Test
  void theStagingCommitterIsRefusedWhereItNeedsWhatTheStoreLacks(S3TestBucket bucket) throws Exception {
    Map<String, Set<StoreGuarantee>> refused = expected();
    try (SparkSession spark = SparkSessions.local("store-refusal-staging", "local[2]", bucket.s3aOptions(),
        StagingCommitters.parquetBinding().sparkConf())) {
      if (refused.containsKey("staging")) {
        Throwable e = assertThrows(Throwable.class, () -> SmokeJob.write(spark, bucket.s3a("staging"), ROWS, 4));
        assertRefused(e, refused.get("staging"), "the staging committer");
        assertBucketEmpty(bucket);
      } else {
        // the store gives what the staging committer relies on: the job runs, its output exact
        SmokeJob.write(spark, bucket.s3a("staging"), ROWS, 4);
        assertEquals(SmokeJob.expected(ROWS), SmokeJob.read(spark, bucket.s3a("staging")));
      }
    }
  }

  @Test
  void aStreamingQueryOnCkptIsRefusedUpFront(S3TestBucket bucket) throws Exception {
    Map<String, Set<StoreGuarantee>> refused = expected();
    String checkpoint = "ckpt://" + bucket.name() + "/" + bucket.prefix() + "query1";
    try (SparkSession spark = SparkSessions.local("store-refusal-ckpt", "local[2]", bucket.s3aOptions(),
        ObjectCommitCheckpoints.s3().sparkConf())) {
      Throwable e = assertThrows(Throwable.class, () -> {
        StreamingQuery q = SparkCompat.option(spark.readStream().format("rate").option("rowsPerSecond", 10).load()
            .writeStream().format("noop"), "checkpointLocation", checkpoint).start();
        try {
          q.processAllAvailable();
        } finally {
          q.stop();
        }
      });
      assertRefused(e, refused.get("ckpt"), "checkpoint-fs");
    }
    assertBucketEmpty(bucket);
  }

  private static void assertRefused(Throwable e, Set<StoreGuarantee> failed, String component) {
    StoreGuaranteeException refusal = null;
    for (Throwable t = e; t != null && refusal == null; t = t.getCause()) {
      if (t instanceof StoreGuaranteeException) {
        refusal = (StoreGuaranteeException) t;
      }
    }
    assertNotNull(refusal, () -> "a StoreGuaranteeException in the causes of " + e);
    assertTrue(refusal.failedGuarantees().containsAll(failed), refusal.failedGuarantees().toString());
    assertTrue(refusal.getMessage().contains(component) && refusal.getMessage().contains("docs/stores.md"),
        refusal.getMessage());
  }

  /** Nothing in the whole bucket: no output, no bookkeeping, and the check's own objects deleted. */
  private static void assertBucketEmpty(S3TestBucket bucket) {
    List<String> keys = bucket.plain().listKeys(bucket.name(), "");
    assertEquals(List.of(), keys, "nothing written but the check's own objects, which it deleted");
  }
}
