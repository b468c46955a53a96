package io.objectcommit.store;

import io.objectcommit.store.impl.S3ObjectStore;
import io.objectcommit.store.impl.client.S3ClientCache;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;

/** Opens {@link ObjectStore}s: the entry point of the store module. */
public final class ObjectStores {

  private ObjectStores() {
  }

  /**
   * A store for one bucket, configured from the {@code fs.s3a.*} and {@code fs.objectcommit.*} keys (per-bucket
   * overrides included), parsed once into a {@link StoreConfig}. Clients are shared between stores with equal
   * settings; close the store when done. Bad settings fail here, naming the key.
   */
  public static ObjectStore open(String bucket, Configuration conf) throws IOException {
    if (bucket == null || bucket.isEmpty()) {
      throw new IllegalArgumentException("no bucket given");
    }
    return open(StoreConfig.from(conf, bucket));
  }

  /** A store built from a parsed configuration: reads nothing more from the Hadoop configuration. */
  static ObjectStore open(StoreConfig config) {
    S3ClientCache.Lease lease = S3ClientCache.acquire(config.client(), config.sdk());
    try {
      return new S3ObjectStore(config.bucket(), lease.calls(config.bucket(), config.client().encryption()),
          config.options(), config.where(), lease::close, Thread::sleep);
    } catch (RuntimeException e) {
      lease.close();
      throw e;
    }
  }

  /** A store for the bucket of a URI such as {@code s3a://bucket/path} (the authority is the bucket). */
  public static ObjectStore open(URI uri, Configuration conf) throws IOException {
    if (uri.getHost() == null && uri.getAuthority() == null) {
      throw new IllegalArgumentException("no bucket in " + uri);
    }
    return open(uri.getHost() != null ? uri.getHost() : uri.getAuthority(), conf);
  }
}
