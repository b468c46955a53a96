package io.objectcommit.store.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.statistics.StoreStatisticNames;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.ErrorKind;
import io.objectcommit.testsupport.proxy.ErrorRule;
import io.objectcommit.testsupport.proxy.FaultPlan;
import io.objectcommit.testsupport.proxy.RequestCounts;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.junit.jupiter.api.Test;

/**
 * The retry trap of conditional writes: the store applies an exclusive create, the response is lost (the proxy
 * forwards the PUT, then resets the connection), the retry meets the object and gets 412. The store must
 * recognise its own write (the write id in the object's metadata) and report success; an object written by
 * someone else must still be refused. On each SDK binding ({@link ConditionalRetryV1IT},
 * {@link ConditionalRetryV2IT}).
 */
@S3IntegrationTest
abstract class ConditionalRetryIT {

  /** The binding under test. */
  abstract Sdk sdk();

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static FaultPlan resetAfterTheStoreApplied(String key) {
    return FaultPlan.builder(1).error(ErrorRule.onNth(ErrorKind.RESET, 1, Set.of(S3Operation.PUT))
        .matching(key + "$").afterUpstream()).build();
  }

  private ObjectStore open(S3FaultProxy proxy, S3TestBucket bucket) throws Exception {
    Configuration conf = bucket.hadoopConfiguration();
    proxy.endpoint().s3aOptions().forEach(conf::set);
    conf.set("fs.objectcommit.conditional-writes", "assume"); // count only the write under test
    return sdk().open(bucket.name(), conf);
  }

  @Test
  void aRetriedExclusiveCreateRecognisesItsOwnWrite(S3TestBucket bucket) throws Exception {
    String key = bucket.key("trap/own");
    try (S3FaultProxy proxy = S3FaultProxy.start(bucket.endpoint());
        ObjectStore store = open(proxy, bucket)) {
      proxy.setFaults(resetAfterTheStoreApplied(key));
      RequestCounts before = proxy.counts();
      store.createExclusive(key, Payload.of(bytes("mine")));
      RequestCounts used = proxy.counts().minus(before);
      assertEquals(2, used.of(S3Operation.PUT), "the PUT and its retry: " + used);
      assertEquals(1, used.of(S3Operation.HEAD), "one HEAD reads the write id: " + used);
      assertArrayEquals(bytes("mine"), store.getBytes(key).data());
      assertEquals(1, store.statistics().snapshot().get(StoreStatisticNames.OP_PUT_CONDITIONAL).retries);
    }
  }

  @Test
  void aForeignObjectIsStillRefused(S3TestBucket bucket) throws Exception {
    String key = bucket.key("trap/foreign");
    bucket.client().putObject(bucket.name(), key, "theirs");
    try (S3FaultProxy proxy = S3FaultProxy.start(bucket.endpoint());
        ObjectStore store = open(proxy, bucket)) {
      proxy.setFaults(resetAfterTheStoreApplied(key));
      assertThrows(FileAlreadyExistsException.class, () -> store.createExclusive(key, Payload.of(bytes("mine"))));
      assertArrayEquals(bytes("theirs"), store.getBytes(key).data());
    }
  }
}
