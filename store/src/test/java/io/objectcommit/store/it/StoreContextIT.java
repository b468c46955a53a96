package io.objectcommit.store.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.StoreContext;
import io.objectcommit.store.guarantee.StoreGuarantee;
import io.objectcommit.store.guarantee.StoreGuaranteeException;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.RequestCounts;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import java.io.IOException;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * A context's stores check a bucket once between them and share one client; another context knows nothing of the
 * first and checks for itself (requests counted by the fault proxy, which sees the check's requests too).
 */
@S3IntegrationTest
class StoreContextIT {

  private static final Set<StoreGuarantee> NEEDED = EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT,
      StoreGuarantee.IF_MATCH_PUT);

  /** Asks for the guarantees; a refusal (on a store that fails them) is a verdict too, kept the same way. */
  private static void require(ObjectStore store, String component) throws IOException {
    try {
      store.requireGuarantees(NEEDED, component);
    } catch (StoreGuaranteeException refused) {
      // the verdict of this store: cached like a pass
    }
  }

  @Test
  void eachContextChecksABucketOnceAndSharesItsClients(S3TestBucket bucket) throws Exception {
    try (S3FaultProxy proxy = S3FaultProxy.start(bucket.endpoint())) {
      Configuration conf = bucket.hadoopConfiguration();
      proxy.endpoint().s3aOptions().forEach(conf::set);
      StoreContext first = new StoreContext();
      RequestCounts start = proxy.counts();
      try (ObjectStore a = first.open(bucket.name(), conf)) {
        require(a, "component A");
        RequestCounts checked = proxy.counts().minus(start);
        assertTrue(checked.total() > 0, "the first store of the context checks: " + checked);
        RequestCounts before = proxy.counts();
        try (ObjectStore b = first.open(bucket.name(), new Configuration(conf))) {
          require(b, "component B");
          assertEquals(1, first.clientsBuilt(), "one client for the context's stores of equal settings");
          assertEquals(2, first.leasesHeld());
        }
        assertEquals(0, proxy.counts().minus(before).total(), "the context's verdict is reused");

        StoreContext second = new StoreContext();
        try (ObjectStore c = second.open(bucket.name(), conf)) {
          require(c, "component A");
          assertEquals(1, second.clientsBuilt(), "a client of its own");
        }
        RequestCounts again = proxy.counts().minus(before);
        assertTrue(again.total() > 0, "another context checks for itself: " + again);
        assertEquals(0, second.leasesHeld());
      }
      assertEquals(0, first.leasesHeld());
    }
  }
}
