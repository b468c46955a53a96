package io.objectcommit.it.faults;

import io.objectcommit.it.SparkStateStores;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.ObjectStores;
import io.objectcommit.store.guarantee.StoreGuarantee;
import io.objectcommit.store.guarantee.StoreGuaranteeException;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/** A test bucket reached through an {@link S3FaultProxy}: S3A settings that go through the proxy. */
public final class ProxiedBucket implements AutoCloseable {

  private final S3TestBucket bucket;
  private final S3FaultProxy proxy;

  public ProxiedBucket(S3TestBucket bucket) {
    this.bucket = bucket;
    this.proxy = S3FaultProxy.start(bucket.endpoint());
  }

  public S3TestBucket bucket() {
    return bucket;
  }

  public S3FaultProxy proxy() {
    return proxy;
  }

  /**
   * {@code fs.s3a.*} settings through the proxy, as a user's settings for the endpoint (Hadoop's FileSystem cache on;
   * {@code SparkSessions} closes an earlier test's instances before a new session starts).
   */
  public Map<String, String> s3aOptions() {
    return new LinkedHashMap<>(proxy.endpoint().s3aOptions());
  }

  /**
   * Runs, through the proxy, the store checks objectcommit's components make once per bucket and JVM (the
   * conditional-write check and the store-guarantee check, docs/stores.md), then resets the proxy's counts: what
   * a test counts afterwards is the protocol's own requests. A store that lacks a guarantee is checked all the
   * same (the components ask only for what they use).
   */
  public void runStoreChecks() throws IOException {
    Configuration conf = new Configuration();
    s3aOptions().forEach(conf::set);
    try (ObjectStore store = ObjectStores.open(bucket.name(), conf)) {
      store.requireGuarantees(StoreGuarantee.ofWrites(), "the test's warm-up");
    } catch (StoreGuaranteeException storeLacksOne) {
      // checked and cached all the same
    }
    proxy.resetCounts();
  }

  /**
   * Stops the proxy, after the state stores of the sessions that used it (closed by then) stopped their maintenance
   * through it ({@link SparkStateStores}).
   */
  @Override
  public void close() {
    SparkStateStores.stopIfNoSparkRuns();
    proxy.close();
  }
}
