package io.objectcommit.it.faults;

import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import java.util.LinkedHashMap;
import java.util.Map;

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
   * {@code fs.s3a.*} settings through the proxy. S3A's retries are kept few so that injected errors surface
   * quickly; the FileSystem cache is off (also for FileContext, which Spark's checkpoint manager uses).
   */
  public Map<String, String> s3aOptions() {
    Map<String, String> m = new LinkedHashMap<>(proxy.endpoint().s3aOptions());
    m.put("fs.s3a.impl.disable.cache", "true");
    return m;
  }

  @Override
  public void close() {
    proxy.close();
  }
}
