package io.objectcommit.store;

import io.objectcommit.store.guarantee.GuardedObjectStore;
import io.objectcommit.store.guarantee.StoreGuarantees;
import io.objectcommit.store.impl.S3Calls;
import io.objectcommit.store.impl.S3ObjectStore;
import io.objectcommit.store.impl.client.S3ClientCache;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;

/** Opens {@link ObjectStore}s: the entry point of the store module. */
public final class ObjectStores {

  /** What the guarantee check found, for every store of this JVM. */
  private static final StoreGuarantees VERDICTS = new StoreGuarantees();

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

  /**
   * A store built from a parsed configuration (reads nothing more from the Hadoop configuration): the S3 store,
   * which sends conditions as given, inside the guarantee policy, whose check writes through a second S3 store of
   * the same client (its own statistics, so the check's requests are not counted as the caller's).
   */
  static ObjectStore open(StoreConfig config) {
    S3ClientCache.Lease lease = S3ClientCache.acquire(config.client(), config.sdk());
    try {
      S3Calls calls = lease.calls(config.bucket(), config.client().encryption());
      ObjectStore s3 = new S3ObjectStore(config.bucket(), calls, config.options(), config.where(), lease::close,
          Thread::sleep);
      return new GuardedObjectStore(s3, config.guarantees(), VERDICTS, config.where(),
          config.options().multipartThreshold(), () -> new S3ObjectStore(config.bucket(), calls, config.options(),
              config.where(), () -> { }, Thread::sleep));
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
