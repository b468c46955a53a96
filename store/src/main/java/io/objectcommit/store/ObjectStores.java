package io.objectcommit.store;

import io.objectcommit.store.config.ConfigReader;
import io.objectcommit.store.impl.client.S3ClientCache;
import io.objectcommit.store.impl.client.S3ClientSettings;
import io.objectcommit.store.impl.S3ObjectStore;
import io.objectcommit.store.impl.client.SdkBinding;
import io.objectcommit.store.impl.client.SdkBindings;
import io.objectcommit.store.impl.StoreOptions;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;

/** Opens {@link ObjectStore}s: the entry point of the store module. */
public final class ObjectStores {

  private ObjectStores() {
  }

  /**
   * A store for one bucket, configured from the {@code fs.s3a.*} and {@code fs.objectcommit.*} keys (per-bucket
   * overrides included). Clients are shared between stores with equal settings; close the store when done.
   * Bad settings fail here, naming the key.
   */
  public static ObjectStore open(String bucket, Configuration conf) throws IOException {
    if (bucket == null || bucket.isEmpty()) {
      throw new IllegalArgumentException("no bucket given");
    }
    S3ClientSettings settings = S3ClientSettings.from(conf, bucket);
    StoreOptions options = StoreOptions.from(new ConfigReader(conf, bucket));
    ConfigReader reader = new ConfigReader(conf, bucket);
    SdkBinding sdk = SdkBindings.choose(reader);
    S3ClientCache.Lease lease = S3ClientCache.acquire(settings, sdk);
    return new S3ObjectStore(bucket, lease.calls(bucket, settings.encryption()), options, settings.describe(),
        lease::close, Thread::sleep);
  }

  /** A store for the bucket of a URI such as {@code s3a://bucket/path} (the authority is the bucket). */
  public static ObjectStore open(URI uri, Configuration conf) throws IOException {
    if (uri.getHost() == null && uri.getAuthority() == null) {
      throw new IllegalArgumentException("no bucket in " + uri);
    }
    return open(uri.getHost() != null ? uri.getHost() : uri.getAuthority(), conf);
  }
}
