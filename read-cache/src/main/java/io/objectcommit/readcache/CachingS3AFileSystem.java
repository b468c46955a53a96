package io.objectcommit.readcache;

import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.ObjectStores;
import io.objectcommit.store.audit.AuditContext;
import io.objectcommit.store.config.ConfigReader;
import java.io.IOException;
import java.net.URI;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.impl.OpenFileParameters;
import org.apache.hadoop.fs.s3a.S3AFileSystem;

/**
 * S3A with reads through the read cache (preview): {@code spark.hadoop.fs.s3a.impl=}{@value #CLASS_NAME}. Only
 * {@link #open(Path, int)} and Hadoop's {@code openFile} builder ({@link #openFileWithOptions}) change: they return a {@link CachingInputStream} over the object's identity (one HEAD
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

  /** Hadoop's standard {@code openFile} options: {@value}. */
  static final String OPENFILE_OPTION_PREFIX = "fs.option.openfile.";
  /** S3A's own {@code openFile} options (read policy, read-ahead): {@value}. */
  static final String S3A_OPTION_PREFIX = "fs.s3a.";

  private ObjectStore store;
  private ReadCache cache;
  private String bucket;

  @Override
  public void initialize(URI name, Configuration originalConf) throws IOException {
    super.initialize(name, originalConf);
    bucket = name.getHost();
    ReadCacheOptions options = ReadCacheOptions.from(new ConfigReader(originalConf, bucket));
    cache = ReadCache.shared(options);
    store = ObjectStores.open(bucket, originalConf, AuditContext.of(AuditContext.READ_CACHE));
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    return new FSDataInputStream(cache.open(store, pathToKey(qualify(f))));
  }

  /**
   * Hadoop's {@code openFile(path)...build()}, which Parquet and Spark use where the line's Hadoop has it: the same
   * caching stream as {@link #open(Path, int)} (else those reads would bypass the cache through S3A's own stream).
   * A file status given with {@code withFileStatus} that carries the object's ETag (S3A's, from a listing or a
   * getFileStatus) fixes the identity without the HEAD; when its object has been replaced since, blocks already
   * cached serve the old object whole and the first one that is not fails with
   * {@link io.objectcommit.store.ObjectChangedException}, as S3A's change detection fails a stale status. The
   * split's end ({@code fs.option.openfile.split.end}) bounds the stream's read-ahead
   * ({@link CachingInputStream#setSplitEnd}); the other options (read policy, length) are hints this stream does not
   * need; a mandatory option that is
   * not one of Hadoop's or S3A's ({@code fs.option.openfile.*}, {@code fs.s3a.*}) is refused, as S3A refuses an
   * unknown one. The future is completed before it is returned (one HEAD at most, as {@code open} does).
   */
  @Override
  public CompletableFuture<FSDataInputStream> openFileWithOptions(Path rawPath, OpenFileParameters parameters)
      throws IOException {
    Path path = qualify(rawPath);
    for (String key : parameters.getMandatoryKeys()) {
      if (!key.startsWith(OPENFILE_OPTION_PREFIX) && !key.startsWith(S3A_OPTION_PREFIX)) {
        throw new IllegalArgumentException("Unknown mandatory key for " + path + ": \"" + key + "\" (the read"
            + " cache's S3A takes " + OPENFILE_OPTION_PREFIX + "* and " + S3A_OPTION_PREFIX + "* options)");
      }
    }
    String key = pathToKey(path);
    Optional<ObjectIdentity> given = identityOf(parameters.getStatus(), key);
    CompletableFuture<FSDataInputStream> result = new CompletableFuture<>();
    try {
      CachingInputStream in = given.isPresent() ? cache.open(store, given.get()) : cache.open(store, key);
      long splitEnd = splitEnd(parameters);
      if (splitEnd > 0) {
        in.setSplitEnd(splitEnd);
      }
      result.complete(new FSDataInputStream(in));
    } catch (IOException | RuntimeException e) {
      result.completeExceptionally(e);
    }
    return result;
  }

  /**
   * The end of the reader's split from Hadoop's {@code fs.option.openfile.split.end} (Hadoop 3.3.5+ callers set it;
   * read by name, so the same code runs on 3.3.4), or 0 when absent or not a number (a hint: never an error).
   */
  private static long splitEnd(OpenFileParameters parameters) {
    if (parameters.getOptions() == null) {
      return 0;
    }
    String v = parameters.getOptions().getTrimmed(ReadCacheConstants.OPENFILE_SPLIT_END, "");
    try {
      return v.isEmpty() ? 0 : Long.parseLong(v);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** The identity a caller's file status gives: a file of this key with an ETag (S3A's statuses carry one). */
  private Optional<ObjectIdentity> identityOf(FileStatus status, String key) {
    if (!(status instanceof EtagSource) || !status.isFile()) {
      return Optional.empty();
    }
    String etag = ((EtagSource) status).getEtag();
    if (etag == null || etag.isEmpty() || !pathToKey(qualify(status.getPath())).equals(key)) {
      return Optional.empty(); // no ETag, or the status of another file: the HEAD fixes the identity
    }
    // ObjectInfo takes the ETag as S3A has it (SDK v2 keeps its quotes) to the store's form, so that both opens of
    // one object look up the same blocks.
    return Optional.of(ObjectIdentity.of(bucket, new ObjectInfo(key, status.getLen(), etag,
        status.getModificationTime())));
  }

  /** The cache this file system reads through (the JVM's for its directory). */
  public ReadCache readCache() {
    return cache;
  }

  /** Closes the store client; writes this JVM's application records of the cache (their last counts). */
  @Override
  public void close() throws IOException {
    try {
      if (cache != null) {
        cache.writeStatistics();
      }
      if (store != null) {
        store.close();
      }
    } finally {
      super.close();
    }
  }
}
