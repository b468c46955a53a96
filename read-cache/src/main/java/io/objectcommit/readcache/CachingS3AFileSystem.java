package io.objectcommit.readcache;

import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.ObjectStores;
import io.objectcommit.store.audit.AuditContext;
import io.objectcommit.store.config.ConfigReader;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.S3AFileSystem;

/**
 * S3A with reads through the read cache (preview): {@code spark.hadoop.fs.s3a.impl=}{@value #CLASS_NAME}. Only
 * {@link #open(Path, int)} changes: it returns a {@link CachingInputStream} over the object's identity (one HEAD
 * through the store module) whose blocks come from the host's cache directory or from ranged GETs pinned to the
 * ETag. Everything else (listing, writes, deletes, renames, S3A's and our committers, which test for
 * {@code S3AFileSystem}) is S3A's own, so {@code s3a://} stays S3A.
 *
 * <p>A subclass rather than a wrapper, because committers and Spark check the file system's class; rather than an
 * input stream factory, because Spark 3.5's Hadoop 3.3.4 has none.
 */
public class CachingS3AFileSystem extends S3AFileSystem {

  /** This class's name, for {@code fs.s3a.impl}: {@value}. */
  public static final String CLASS_NAME = "io.objectcommit.readcache.CachingS3AFileSystem";

  private ObjectStore store;
  private ReadCache cache;

  @Override
  public void initialize(URI name, Configuration originalConf) throws IOException {
    super.initialize(name, originalConf);
    String bucket = name.getHost();
    ReadCacheOptions options = ReadCacheOptions.from(new ConfigReader(originalConf, bucket));
    cache = ReadCache.shared(options);
    store = ObjectStores.open(bucket, originalConf, AuditContext.of(AuditContext.READ_CACHE));
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    return new FSDataInputStream(cache.open(store, pathToKey(qualify(f))));
  }

  /** The cache this file system reads through (the JVM's for its directory). */
  public ReadCache readCache() {
    return cache;
  }

  @Override
  public void close() throws IOException {
    try {
      if (store != null) {
        store.close();
      }
    } finally {
      super.close();
    }
  }
}
