package io.objectcommit.store.testing;

import static io.objectcommit.store.statistics.StoreStatisticNames.OP_COPY;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_DELETE;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_DELETE_BULK;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_GET;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_HEAD;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_HEAD_BUCKET;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_LIST;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_LIST_VERSIONS;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_MULTIPART_ABORT;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_MULTIPART_COMPLETE;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_MULTIPART_INITIATE;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_MULTIPART_LIST;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_MULTIPART_PART;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_PUT;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_PUT_CONDITIONAL;

import io.objectcommit.store.ListPage;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoreCapabilities;
import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.StoredBytes;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.VersionPage;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.config.ConfigReader;
import io.objectcommit.store.guarantee.ProbeSite;
import io.objectcommit.store.statistics.StoreStatistics;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;

/**
 * An {@link ObjectStore} on an in-memory bucket, for unit tests: behaves as {@code S3ObjectStore} on S3 does
 * (conditional writes, S3's ETags, ranged reads, listings with delimiter and pages, batch deletes of 1,000 keys
 * per request, multipart uploads with conditions, the same {@link StoreStatistics} names), which
 * {@code AbstractObjectStoreContractTest} checks against both. Counts requests as the fault proxy does
 * ({@link #counts()}, by {@link S3Operation} and status), fails chosen requests ({@link FaultRule}), and can hide
 * keys from listings. Thread-safe.
 *
 * <p>Several stores may share one bucket: {@link #register(String)} creates a bucket in a static registry and
 * {@link #open(String, Configuration)} opens further stores on it: what {@code ObjectStores.open} returns to a
 * component under test when the configuration names {@link InMemoryStoreFactory}. Each store has its own
 * {@link #statistics()} and closed state, like real stores sharing a client; {@link #counts()}, faults, listing
 * visibility and the clock belong to the bucket.
 *
 * <p>Differences from the real store: injected faults are thrown as they are (the real store would have retried
 * a transient failure first); {@link #capabilities()} answers VERIFIED without a probe; there is no encryption.
 */
public final class InMemoryObjectStore implements ObjectStore {

  /**
   * The registered buckets, by name. Static because the components under test open their stores through a factory
   * the configuration names ({@link InMemoryStoreFactory}, made by reflection), which can reach a test's bucket
   * only by its name. Nothing needs resetting: a test registers a fresh bucket under its own name, replacing any
   * earlier one of that name.
   */
  private static final Map<String, InMemoryBucket> REGISTRY = new ConcurrentHashMap<>();

  private final InMemoryBucket bucket;
  private final long multipartThreshold;
  private final long partSize;
  private final StoreStatistics statistics = new StoreStatistics();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final RequestSender requests;
  private volatile boolean bucketVerified;

  private InMemoryObjectStore(InMemoryBucket bucket, Configuration conf) {
    this.bucket = bucket;
    this.requests = new RequestSender(bucket, statistics);
    ConfigReader r = new ConfigReader(conf, bucket.name);
    this.partSize = r.getBytes(StoreConstants.MULTIPART_SIZE, StoreConstants.MULTIPART_SIZE_DEFAULT,
        StoreConstants.MULTIPART_MIN_SIZE);
    this.multipartThreshold = r.getBytes(StoreConstants.MULTIPART_THRESHOLD,
        StoreConstants.MULTIPART_THRESHOLD_DEFAULT, StoreConstants.MULTIPART_MIN_SIZE);
  }

  /** A store on a new empty bucket of its own (not registered), with the default multipart settings. */
  public static InMemoryObjectStore create(String bucket) {
    return create(bucket, new Configuration(false));
  }

  /** A store on a new empty bucket of its own, with the multipart settings ({@code fs.s3a.multipart.*}) of conf. */
  public static InMemoryObjectStore create(String bucket, Configuration conf) {
    return new InMemoryObjectStore(new InMemoryBucket(bucket), conf);
  }

  /** A new empty bucket in the static registry (replacing one of that name), and a store on it. */
  public static InMemoryObjectStore register(String bucket) {
    InMemoryBucket b = new InMemoryBucket(bucket);
    REGISTRY.put(bucket, b);
    return new InMemoryObjectStore(b, new Configuration(false));
  }

  /** Removes a bucket from the registry (its stores keep working on it). */
  public static void unregister(String bucket) {
    REGISTRY.remove(bucket);
  }

  /**
   * A new store on a {@link #register registered} bucket, configured from conf as {@code ObjectStores.open} would
   * be: what {@link InMemoryStoreFactory} returns.
   *
   * @throws FileNotFoundException if no bucket of that name is registered
   */
  public static InMemoryObjectStore open(String bucket, Configuration conf) throws FileNotFoundException {
    InMemoryBucket b = REGISTRY.get(bucket);
    if (b == null) {
      throw new FileNotFoundException("s3://" + bucket + "/: no such in-memory bucket (register it first)");
    }
    return new InMemoryObjectStore(b, conf);
  }

  /** Another store on this store's bucket: own statistics, shared data. */
  public InMemoryObjectStore newStore(Configuration conf) {
    return new InMemoryObjectStore(bucket, conf);
  }

  // --------------------------------------------------------------------------------- test controls

  /**
   * Whether this bucket's stores honour If-Match on DeleteObject (the default) or, like LocalStack, refuse it
   * (501) and answer false to {@link #conditionalDeletes}.
   */
  public void setConditionalDeletes(boolean honoured) {
    bucket.setConditionalDeletes(honoured);
  }

  /** The requests every store on this bucket sent, as the fault proxy would count them. */
  public InMemoryRequestCounts counts() {
    return bucket.counts();
  }

  public void resetCounts() {
    bucket.resetCounts();
  }

  /** Installs a fault rule on the bucket (rules are tried in order; the first that fires fails the request). */
  public void addFault(FaultRule rule) {
    bucket.addFault(rule);
  }

  public void clearFaults() {
    bucket.clearFaults();
  }

  /** Installs a one-shot {@link RequestHook} on the bucket: an action run inside a chosen request. */
  public void addHook(RequestHook hook) {
    bucket.addHook(hook);
  }

  /** LIST leaves this key out until {@link #showAllInListing()} (reads still find it). */
  public void hideFromListing(String key) {
    bucket.hideFromListing(key);
  }

  /** LIST leaves out keys written less than {@code window} ago on the bucket's clock (zero: off). */
  public void hideNewKeysFromListing(Duration window) {
    bucket.hideNewKeysFromListing(window.toMillis());
  }

  public void showAllInListing() {
    bucket.showAllInListing();
  }

  /**
   * Every request on the bucket waits this long before it is applied, as a store's round trip would (zero: none);
   * the wait holds no lock, so concurrent requests overlap.
   */
  public void setLatency(Duration perRequest) {
    bucket.setLatency(perRequest.toMillis());
  }

  /** The most requests that were in flight on the bucket at once since it was created or its counts were reset. */
  public int maxConcurrentRequests() {
    return bucket.maxInFlight();
  }

  /** The clock of write times, upload initiation and listing windows, in milliseconds since the epoch. */
  public void setClock(LongSupplier millis) {
    bucket.setClock(millis);
  }

  /** The keys under a prefix, in key order (no request counted). */
  public List<String> keys(String prefix) {
    return bucket.keys(prefix);
  }

  /** The bytes of an object, or null when there is none (no request counted; do not modify). */
  public byte[] bytes(String key) {
    InMemoryBucket.Obj o = bucket.get(key);
    return o == null ? null : o.data;
  }

  public boolean exists(String key) {
    return bucket.get(key) != null;
  }

  /** The incomplete multipart uploads under a prefix (no request counted). */
  public List<MultipartUpload> pendingUploads(String prefix) {
    return bucket.uploads(prefix);
  }

  // -------------------------------------------------------------------------------------- requests

  /** One request: counted, possibly failed by a fault rule, recorded in this store's statistics. */
  private <T> T send(S3Operation op, String stat, Collection<String> keys, boolean conditional,
      RequestSender.Call<T> call) throws IOException {
    checkOpen();
    return requests.send(op, stat, keys, conditional, call);
  }

  private void checkOpen() throws IOException {
    if (closed.get()) {
      throw new IOException("s3://" + bucket.name + ": store is closed");
    }
  }

  private static byte[] read(Payload p) throws IOException {
    if (p instanceof Payload.Bytes) {
      Payload.Bytes b = (Payload.Bytes) p;
      return Arrays.copyOfRange(b.array(), b.offset(), b.offset() + (int) b.length());
    }
    try (InputStream in = p.open()) {
      return in.readAllBytes();
    }
  }

  // ---------------------------------------------------------------------------------------- writes

  @Override
  public String bucket() {
    return bucket.name;
  }

  @Override
  public ObjectInfo put(String key, Payload payload, WriteCondition condition) throws IOException {
    checkOpen();
    byte[] data = read(payload);
    if (data.length < multipartThreshold) {
      String stat = condition.isConditional() ? OP_PUT_CONDITIONAL : OP_PUT;
      ObjectInfo info = send(S3Operation.PUT, stat, List.of(key), condition.isConditional(),
          s -> bucket.write(key, data, S3Etags.ofBytes(data), condition, "put"));
      statistics.recordBytes(stat, data.length);
      return info;
    }
    MultipartUpload upload = initiateMultipartUpload(key);
    try {
      List<UploadedPart> parts = new ArrayList<>();
      int n = 1;
      for (long off = 0; off < data.length; off += partSize, n++) {
        int len = (int) Math.min(partSize, data.length - off);
        parts.add(uploadPart(upload, n, Payload.of(data, (int) off, len)));
      }
      return completeMultipartUpload(upload, parts, condition);
    } catch (IOException | RuntimeException e) {
      try {
        abortMultipartUpload(upload);
      } catch (IOException | RuntimeException abortFailure) {
        e.addSuppressed(abortFailure);
      }
      throw e;
    }
  }

  // ----------------------------------------------------------------------------------------- reads

  private InMemoryBucket.Obj existing(String key, String op) throws FileNotFoundException {
    InMemoryBucket.Obj o = bucket.get(key);
    if (o == null) {
      throw new FileNotFoundException(pathOf(key) + ": " + op + ": no such object on in-memory bucket "
          + bucket.name);
    }
    return o;
  }

  @Override
  public StoredBytes getBytes(String key) throws IOException {
    return getBytesIfChanged(key, null).orElseThrow();
  }

  @Override
  public Optional<StoredBytes> getBytesIfChanged(String key, String etag) throws IOException {
    Optional<StoredBytes> got = send(S3Operation.GET, OP_GET, List.of(key), false, s -> {
      InMemoryBucket.Obj o = existing(key, OP_GET);
      if (etag != null && etag.equals(o.etag)) {
        s[0] = 304;
        return Optional.empty();
      }
      return Optional.of(new StoredBytes(o.info(key), o.data.clone())); // the caller's own copy, as from S3
    });
    got.ifPresent(b -> statistics.recordBytes(OP_GET, b.data().length));
    return got;
  }

  @Override
  public InputStream open(String key, long start, long end, String ifMatchEtag) throws IOException {
    checkOpen();
    if (start < 0 || (end >= 0 && end < start)) {
      throw new IllegalArgumentException("bad range [" + start + ", " + end + ") of " + pathOf(key));
    }
    if (end == start) {
      statistics.recordRequest(OP_GET, 0, false); // as the real store: counted, but no request sent
      return InputStream.nullInputStream();
    }
    byte[] range = send(S3Operation.GET, OP_GET, List.of(key), ifMatchEtag != null, s -> {
      InMemoryBucket.Obj o = existing(key, OP_GET); // one object: its ETag and bytes belong together
      if (ifMatchEtag != null && !ifMatchEtag.equals(o.etag)) {
        throw ObjectChangedException.onRead(pathOf(key), "ranged read of bytes " + start + "-"
            + (end < 0 ? "" : end - 1), ifMatchEtag);
      }
      byte[] d = o.data;
      boolean ranged = end >= 0 || start > 0;
      if (ranged && start >= d.length) {
        throw new RequestSender.RangeNotSatisfiable(pathOf(key), OP_GET + " failed: 416 InvalidRange (bytes " + start + "-"
            + (end < 0 ? "" : end - 1) + " of an object of " + d.length + " bytes)");
      }
      s[0] = ranged ? 206 : 200;
      return Arrays.copyOfRange(d, (int) start, end < 0 ? d.length : (int) Math.min(end, d.length));
    });
    statistics.recordBytes(OP_GET, range.length);
    return new ByteArrayInputStream(range);
  }

  @Override
  public Optional<ObjectInfo> head(String key) throws IOException {
    Optional<ObjectInfo> info = send(S3Operation.HEAD, OP_HEAD, List.of(key), false, s -> {
      InMemoryBucket.Obj o = bucket.get(key);
      s[0] = o == null ? 404 : 200;
      return o == null ? Optional.<ObjectInfo>empty() : Optional.of(o.info(key));
    });
    if (info.isEmpty() && !bucketVerified) {
      // as the real store: a HEAD answers 404 for a missing bucket too; one HEAD of the bucket tells them apart
      send(S3Operation.BUCKET, OP_HEAD_BUCKET, List.of(""), false, s -> Boolean.TRUE);
      bucketVerified = true;
    }
    return info;
  }

  @Override
  public ListPage list(String prefix, String delimiter, String startAfter, String continuationToken, int maxKeys)
      throws IOException {
    String p = prefix == null ? "" : prefix;
    return send(S3Operation.LIST, OP_LIST, List.of(p), false,
        s -> bucket.list(p, delimiter, startAfter, continuationToken, maxKeys));
  }

  /** As a bucket whose versioning was never on: every object one current version, no delete markers. */
  @Override
  public VersionPage listVersions(String prefix, String keyMarker, String versionIdMarker, int maxKeys)
      throws IOException {
    String p = prefix == null ? "" : prefix;
    return send(S3Operation.LIST_VERSIONS, OP_LIST_VERSIONS, List.of(p), false,
        s -> bucket.listVersions(p, keyMarker, maxKeys));
  }

  // ------------------------------------------------------------------------------------------ copy

  @Override
  public ObjectInfo copy(String sourceKey, String sourceEtag, String targetKey) throws IOException {
    return send(S3Operation.COPY, OP_COPY, List.of(targetKey), false,
        s -> bucket.copy(sourceKey, sourceEtag, targetKey));
  }

  // ---------------------------------------------------------------------------------------- delete

  @Override
  public void delete(String key) throws IOException {
    send(S3Operation.DELETE, OP_DELETE, List.of(key), false, s -> {
      bucket.remove(List.of(key));
      return Boolean.TRUE;
    });
  }

  @Override
  public void delete(String key, String ifMatchEtag) throws IOException {
    if (ifMatchEtag == null) {
      delete(key);
      return;
    }
    send(S3Operation.DELETE, OP_DELETE, List.of(key), true, s -> {
      bucket.removeIfMatch(key, ifMatchEtag);
      return Boolean.TRUE;
    });
  }

  /** As the bucket is set ({@link #setConditionalDeletes}): honoured unless a test says otherwise. */
  @Override
  public boolean conditionalDeletes(String component, ProbeSite site) throws IOException {
    checkOpen();
    return bucket.conditionalDeletes();
  }

  @Override
  public int deleteBatch(Collection<String> keys) throws IOException {
    checkOpen();
    List<String> all = new ArrayList<>(keys);
    for (int from = 0; from < all.size(); from += 1000) {
      List<String> batch = all.subList(from, Math.min(all.size(), from + 1000));
      send(S3Operation.BULK_DELETE, OP_DELETE_BULK, batch, false, s -> {
        bucket.remove(batch);
        return Boolean.TRUE;
      });
    }
    return all.size();
  }

  // ------------------------------------------------------------------------------------- multipart

  @Override
  public MultipartUpload initiateMultipartUpload(String key) throws IOException {
    return send(S3Operation.MULTIPART_INITIATE, OP_MULTIPART_INITIATE, List.of(key), false,
        s -> bucket.initiate(key));
  }

  @Override
  public UploadedPart uploadPart(MultipartUpload upload, int partNumber, Payload part) throws IOException {
    checkOpen();
    byte[] data = read(part);
    UploadedPart p = send(S3Operation.MULTIPART_PART, OP_MULTIPART_PART, List.of(upload.key()), false,
        s -> bucket.putPart(upload, partNumber, data));
    statistics.recordBytes(OP_MULTIPART_PART, data.length);
    return p;
  }

  @Override
  public ObjectInfo completeMultipartUpload(MultipartUpload upload, List<UploadedPart> parts,
      WriteCondition condition) throws IOException {
    checkOpen();
    if (parts.isEmpty()) {
      throw new IllegalArgumentException(upload + ": cannot complete an upload with no parts");
    }
    return send(S3Operation.MULTIPART_COMPLETE, OP_MULTIPART_COMPLETE, List.of(upload.key()),
        condition.isConditional(), s -> bucket.complete(upload, parts, condition));
  }

  @Override
  public void abortMultipartUpload(MultipartUpload upload) throws IOException {
    send(S3Operation.MULTIPART_ABORT, OP_MULTIPART_ABORT, List.of(upload.key()), false, s -> {
      if (!bucket.abort(upload)) {
        s[0] = 404; // NoSuchUpload: aborted or completed already, which the real store reports as success
      }
      return Boolean.TRUE;
    });
  }

  @Override
  public List<MultipartUpload> listMultipartUploads(String prefix) throws IOException {
    String p = prefix == null ? "" : prefix;
    List<MultipartUpload> all = bucket.uploads(p);
    for (int page = 0; page == 0 || page * 1000 < all.size(); page++) {
      send(S3Operation.MULTIPART_LIST, OP_MULTIPART_LIST, List.of(p), false, s -> Boolean.TRUE);
    }
    return all;
  }

  // ------------------------------------------------------------------------------------------ misc

  @Override
  public StoreCapabilities capabilities() throws IOException {
    checkOpen();
    return new StoreCapabilities(StoreCapabilities.ConditionalWrites.VERIFIED);
  }

  @Override
  public StoreStatistics statistics() {
    return statistics;
  }

  @Override
  public void close() {
    closed.set(true);
  }

  @Override
  public String toString() {
    return "InMemoryObjectStore{s3://" + bucket.name + "/}";
  }
}
