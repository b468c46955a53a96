package io.objectcommit.store.impl;

import static io.objectcommit.store.statistics.StoreStatisticNames.OP_COPY;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_DELETE_BULK;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_GET;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_LIST;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_LIST_VERSIONS;

import io.objectcommit.store.ListPage;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoreCapabilities;
import io.objectcommit.store.StoredBytes;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.VersionPage;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.statistics.StoreStatistics;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.PathIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link ObjectStore} on one S3 bucket, through either AWS SDK ({@link S3Calls}, bound by {@code impl.v1} or
 * {@code impl.v2}). Retries, statistics and error translation are
 * done by the {@link Invoker}; conditional writes by {@link ConditionalWrites}; large and multipart uploads by
 * {@link MultipartWriter}. Requests flow one way: this class, then those two, then {@link S3Requests} (one request
 * through the invoker), then the SDK binding; nothing below calls back up. Thread-safe.
 *
 * <p>Conditions are sent as given and trusted ({@link #capabilities()} answers ASSUMED;
 * {@link #requireGuarantees} is the interface's default): whether the store honours them is decided above this
 * class, by the guarantee policy that {@code ObjectStores.open} wraps around it ({@code guarantee.GuardedObjectStore}),
 * which checks the store through another instance of this class.
 */
public final class S3ObjectStore implements ObjectStore {

  private static final Logger LOG = LoggerFactory.getLogger(S3ObjectStore.class);

  private final String bucket;
  private final StoreOptions options;
  private final StoreStatistics statistics = new StoreStatistics();
  private final S3Requests requests;
  private final ConditionalWrites conditional;
  private final MultipartWriter multipart;
  private final Closeable onClose;
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * @param where   the bucket and endpoint for messages, never credentials
   * @param onClose released on {@link #close()} (the client's cache lease)
   */
  public S3ObjectStore(String bucket, S3Calls client, StoreOptions options, String where, Closeable onClose) {
    this(bucket, client, options, where, onClose, Thread::sleep);
  }

  /** @param sleeper waits between retries (tests replace it) */
  S3ObjectStore(String bucket, S3Calls client, StoreOptions options, String where, Closeable onClose,
      Invoker.Sleeper sleeper) {
    this.bucket = bucket;
    this.options = options;
    this.onClose = onClose;
    Invoker invoker = new Invoker(options.retryPolicy(), statistics, new ErrorTranslation(where), sleeper);
    this.requests = new S3Requests(bucket, client, invoker);
    this.conditional = new ConditionalWrites(requests);
    this.multipart = new MultipartWriter(requests, options);
  }

  @Override
  public String bucket() {
    return bucket;
  }

  // ------------------------------------------------------------------------------------------------ writes

  @Override
  public ObjectInfo put(String key, Payload payload, WriteCondition condition) throws IOException {
    checkOpen();
    Payload p = payload;
    if (p instanceof Payload.StreamPayload) {
      // Buffer up to the threshold: decides single PUT vs multipart, and makes a single PUT repeatable.
      BufferedStart start = BufferedStart.read(p.open(), options.multipartThreshold());
      if (start.complete()) {
        return conditional.put(key, Payload.of(start.buffer(), 0, start.length()), condition);
      }
      return multipart.upload(key, start, p.open(), condition);
    }
    if (p.length() < options.multipartThreshold()) {
      return conditional.put(key, p, condition);
    }
    return multipart.upload(key, p, condition);
  }

  // ------------------------------------------------------------------------------------------------- reads

  @Override
  public StoredBytes getBytes(String key) throws IOException {
    return getBytesIfChanged(key, null).orElseThrow(
        () -> new IOException(pathOf(key) + ": the store answered an unconditional GET with 304"));
  }

  @Override
  public Optional<StoredBytes> getBytesIfChanged(String key, String etag) throws IOException {
    checkOpen();
    return requests.send(OP_GET, pathOf(key), (s3, attempt) -> {
      Optional<StoredBytes> got = s3.get(key, etag);
      got.ifPresent(b -> statistics.recordBytes(OP_GET, b.data().length));
      return got;
    });
  }

  @Override
  public InputStream open(String key, long start, long end, String ifMatchEtag) throws IOException {
    checkOpen();
    if (start < 0 || (end >= 0 && end < start)) {
      throw new IllegalArgumentException("bad range [" + start + ", " + end + ") of " + pathOf(key));
    }
    if (end == start) {
      return InputStream.nullInputStream(); // an empty range: no request
    }
    S3Calls.ObjectBody body = requests.send(OP_GET, pathOf(key), (s3, attempt) -> s3.getRange(key, start, end,
        ifMatchEtag), (e, attempt) -> {
          if (ifMatchEtag != null && e.isStatus(412)) {
            ObjectChangedException changed = ObjectChangedException.onRead(pathOf(key), "ranged read of bytes "
                + start + "-" + (end < 0 ? "" : end - 1), ifMatchEtag);
            changed.initCause(e);
            throw changed;
          }
          return null;
        });
    return new ObjectInputStream(body, bytes -> statistics.recordBytes(OP_GET, bytes));
  }

  @Override
  public Optional<ObjectInfo> head(String key) throws IOException {
    checkOpen();
    return requests.head(key).map(S3Calls.ObjectHead::info);
  }

  @Override
  public ListPage list(String prefix, String delimiter, String startAfter, String continuationToken, int maxKeys)
      throws IOException {
    checkOpen();
    return requests.send(OP_LIST, pathOf(prefix), (s3, attempt) -> s3.list(prefix, delimiter, startAfter,
        continuationToken, Math.max(1, Math.min(maxKeys, 1000))));
  }

  @Override
  public VersionPage listVersions(String prefix, String keyMarker, String versionIdMarker, int maxKeys)
      throws IOException {
    checkOpen();
    return requests.send(OP_LIST_VERSIONS, pathOf(prefix), (s3, attempt) -> s3.listVersions(prefix, keyMarker,
        versionIdMarker, Math.max(1, Math.min(maxKeys, 1000))));
  }

  // -------------------------------------------------------------------------------------------------- copy

  @Override
  public ObjectInfo copy(String sourceKey, String sourceEtag, String targetKey) throws IOException {
    checkOpen();
    String writeId = UUID.randomUUID().toString();
    String path = pathOf(targetKey) + " (copy of " + pathOf(sourceKey) + ")";
    return requests.send(OP_COPY, path, (s3, attempt) -> new ObjectInfo(targetKey, -1,
        s3.copy(sourceKey, sourceEtag, targetKey, writeId), 0), (e, attempt) -> {
          if (e.isStatus(412)) {
            ObjectChangedException changed = new ObjectChangedException(pathOf(sourceKey), "copy to "
                + pathOf(targetKey), sourceEtag);
            changed.initCause(e);
            throw changed;
          }
          if (e.isStatus(404) && !"NoSuchBucket".equals(e.errorCode())) {
            FileNotFoundException gone = new FileNotFoundException(pathOf(sourceKey) + ": no such object to copy to "
                + pathOf(targetKey));
            gone.initCause(e);
            throw gone;
          }
          return null;
        });
  }

  // ------------------------------------------------------------------------------------------------ delete

  @Override
  public void delete(String key) throws IOException {
    checkOpen();
    requests.delete(key);
  }

  @Override
  public void delete(String key, String ifMatchEtag) throws IOException {
    checkOpen();
    if (ifMatchEtag == null) {
      requests.delete(key);
    } else {
      requests.deleteIfMatch(key, ifMatchEtag);
    }
  }

  @Override
  public int deleteBatch(Collection<String> keys) throws IOException {
    checkOpen();
    List<String> all = new ArrayList<>(keys);
    for (int from = 0; from < all.size(); from += 1000) {
      List<String> batch = all.subList(from, Math.min(all.size(), from + 1000));
      String first = pathOf(batch.get(0));
      requests.send(OP_DELETE_BULK, first, (s3, attempt) -> {
        s3.deleteBatch(batch);
        return Boolean.TRUE;
      }, (e, attempt) -> {
        if (!e.refusedKeys().isEmpty()) {
          List<String> errors = e.refusedKeys();
          String refused = errors.stream().limit(10).collect(Collectors.joining(", "));
          PathIOException pe = new PathIOException(first, "bulk delete refused " + errors.size() + " of "
              + batch.size() + " keys: " + refused + (errors.size() > 10 ? ", ..." : ""));
          pe.initCause(e);
          throw pe;
        }
        return null;
      });
    }
    return all.size();
  }

  // --------------------------------------------------------------------------------------------- multipart

  @Override
  public MultipartUpload initiateMultipartUpload(String key) throws IOException {
    checkOpen();
    return multipart.initiate(key, UUID.randomUUID().toString());
  }

  @Override
  public UploadedPart uploadPart(MultipartUpload upload, int partNumber, Payload part) throws IOException {
    checkOpen();
    return multipart.uploadPart(upload, partNumber, part);
  }

  @Override
  public ObjectInfo completeMultipartUpload(MultipartUpload upload, List<UploadedPart> parts,
      WriteCondition condition) throws IOException {
    checkOpen();
    return multipart.complete(upload, parts, condition);
  }

  @Override
  public void abortMultipartUpload(MultipartUpload upload) throws IOException {
    checkOpen();
    multipart.abort(upload);
  }

  @Override
  public List<MultipartUpload> listMultipartUploads(String prefix) throws IOException {
    checkOpen();
    return multipart.list(prefix);
  }

  // -------------------------------------------------------------------------------------------------- misc

  /** Conditions are sent as given and trusted: ASSUMED, without a request. */
  @Override
  public StoreCapabilities capabilities() throws IOException {
    checkOpen();
    return new StoreCapabilities(StoreCapabilities.ConditionalWrites.ASSUMED);
  }

  @Override
  public StoreStatistics statistics() {
    return statistics;
  }

  @Override
  public void close() throws IOException {
    if (closed.compareAndSet(false, true)) {
      LOG.debug("Closing store of s3://{}: {}", bucket, statistics.snapshot());
      onClose.close();
    }
  }

  private void checkOpen() throws IOException {
    if (closed.get()) {
      throw new IOException("s3://" + bucket + ": store is closed");
    }
  }

  @Override
  public String toString() {
    return "S3ObjectStore{" + requests.where() + "}";
  }
}
