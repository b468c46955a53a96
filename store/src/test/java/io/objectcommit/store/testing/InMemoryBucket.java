package io.objectcommit.store.testing;

import io.objectcommit.store.ListPage;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectVersion;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.VersionPage;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.impl.RequestFailure;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.PathIOException;

/**
 * The data of one in-memory bucket, shared by every {@link InMemoryObjectStore} on it: objects, incomplete
 * multipart uploads, request counts, fault rules, listing visibility and the clock. S3's rules live here; the
 * store adds counting, statistics and faults around each request. Thread-safe (one lock per bucket).
 */
final class InMemoryBucket {

  /** Smallest part S3 accepts, except the last. */
  static final long MIN_PART_SIZE = 5L * 1024 * 1024;

  /** One stored object. */
  static final class Obj {
    final byte[] data;
    final String etag;
    final long lastModified;
    final long writtenAt;

    Obj(byte[] data, String etag, long writtenAt) {
      this.data = data;
      this.etag = etag;
      this.lastModified = writtenAt - Math.floorMod(writtenAt, 1000L); // S3 keeps whole seconds
      this.writtenAt = writtenAt;
    }

    ObjectInfo info(String key) {
      return new ObjectInfo(key, data.length, etag, lastModified);
    }
  }

  private static final class Upload {
    final String key;
    final String id;
    final long initiated;
    final long seq;
    final Map<Integer, UploadedPart> parts = new HashMap<>();
    final Map<Integer, byte[]> data = new HashMap<>();

    Upload(String key, String id, long initiated, long seq) {
      this.key = key;
      this.id = id;
      this.initiated = initiated;
      this.seq = seq;
    }
  }

  /** A rule and how often it matched since it was installed. */
  private static final class Installed {
    final FaultRule rule;
    final AtomicLong matches = new AtomicLong();

    Installed(FaultRule rule) {
      this.rule = rule;
    }
  }

  final String name;
  private final ConcurrentSkipListMap<String, Obj> objects = new ConcurrentSkipListMap<>(S3Etags.KEY_ORDER);
  private final Map<String, Upload> uploads = new HashMap<>();
  private long seq;
  private volatile LongSupplier clock = System::currentTimeMillis;

  private final Map<S3Operation, Map<Integer, Long>> counts = new EnumMap<>(S3Operation.class);
  private final Map<S3Operation, Long> conditional = new EnumMap<>(S3Operation.class);
  private final List<Installed> faults = new CopyOnWriteArrayList<>();
  private final List<RequestHook> hooks = new CopyOnWriteArrayList<>();

  private final Set<String> hiddenKeys = ConcurrentHashMap.newKeySet();
  private volatile long hideNewKeysMs;

  private volatile long latencyMs;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();

  InMemoryBucket(String name) {
    this.name = name;
  }

  String pathOf(String key) {
    return "s3://" + name + "/" + key;
  }

  long now() {
    return clock.getAsLong();
  }

  void setClock(LongSupplier clock) {
    this.clock = clock;
  }

  // ------------------------------------------------------------------------------------------- objects

  synchronized ObjectInfo write(String key, byte[] data, String etag, WriteCondition c, String op)
      throws IOException {
    checkCondition(key, c, op);
    objects.put(key, new Obj(data, etag, now()));
    return new ObjectInfo(key, data.length, etag, 0); // a write's answer carries no size or time: the store adds
  }

  private void checkCondition(String key, WriteCondition c, String op) throws IOException {
    Obj current = objects.get(key);
    if (c.kind() == WriteCondition.Kind.IF_ABSENT && current != null) {
      throw new FileAlreadyExistsException(pathOf(key) + ": " + op + ": an object already exists (exclusive"
          + " create, If-None-Match: *, refused)");
    }
    if (c.kind() == WriteCondition.Kind.IF_MATCH) {
      if (current == null) {
        throw new FileNotFoundException(pathOf(key) + ": " + op + " (If-Match " + c.etag() + "): the object no"
            + " longer exists");
      }
      if (!current.etag.equals(c.etag())) {
        throw new ObjectChangedException(pathOf(key), op, c.etag());
      }
    }
  }

  /** CopyObject with the source's ETag as condition: the copy's ETag is the MD5 of the bytes, as S3's. */
  synchronized ObjectInfo copy(String sourceKey, String sourceEtag, String targetKey) throws IOException {
    Obj source = objects.get(sourceKey);
    if (source == null) {
      throw new FileNotFoundException(pathOf(sourceKey) + ": no such object to copy to " + pathOf(targetKey));
    }
    if (sourceEtag != null && !source.etag.equals(sourceEtag)) {
      throw new ObjectChangedException(pathOf(sourceKey), "copy to " + pathOf(targetKey), sourceEtag);
    }
    String etag = S3Etags.ofBytes(source.data);
    objects.put(targetKey, new Obj(source.data, etag, now()));
    return new ObjectInfo(targetKey, -1, etag, 0);
  }

  /** Whether DeleteObject honours If-Match (as Amazon S3, moto, S3Proxy, S3Mock) or refuses it (LocalStack: 501). */
  private volatile boolean conditionalDeletes = true;

  void setConditionalDeletes(boolean honoured) {
    this.conditionalDeletes = honoured;
  }

  boolean conditionalDeletes() {
    return conditionalDeletes;
  }

  /**
   * DeleteObject with If-Match: deletes while the object has that ETag, refuses a stale one (412, the object kept);
   * a missing object counts as deleted (as the S3 store reports AWS's 404).
   */
  synchronized void removeIfMatch(String key, String etag) throws IOException {
    if (!conditionalDeletes) {
      PathIOException refused = new PathIOException(pathOf(key), "delete (If-Match): 501 NotImplemented (this"
          + " fake store, like LocalStack, refuses preconditions on DeleteObject); nothing was deleted");
      refused.initCause(RequestFailure.answer(501, "NotImplemented", "DeleteObject Preconditions", null, null));
      throw refused;
    }
    Obj current = objects.get(key);
    if (current == null) {
      return;
    }
    if (!current.etag.equals(etag)) {
      throw new ObjectChangedException(pathOf(key), "delete (If-Match)", etag, "nothing was deleted");
    }
    objects.remove(key);
  }

  Obj get(String key) {
    return objects.get(key);
  }

  synchronized void remove(Collection<String> keys) {
    keys.forEach(objects::remove);
  }

  List<String> keys(String prefix) {
    return objects.tailMap(prefix, true).keySet().stream().takeWhile(k -> k.startsWith(prefix))
        .collect(Collectors.toList());
  }

  /**
   * One page of a ListObjectsV2: keys and common prefixes both count towards {@code maxKeys}; without a token, from
   * the first key after {@code startAfter} (null: from the prefix), as S3 does (a common prefix is listed when a key
   * under it comes after {@code startAfter}).
   */
  ListPage list(String prefix, String delimiter, String startAfter, String token, int maxKeys) {
    int max = Math.max(1, Math.min(maxKeys, 1000));
    // the token names the last entry of the previous page: "K" and a key, or "P" and a common prefix
    String decoded = token == null ? null : new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    String after = decoded == null ? null : decoded.substring(1);
    boolean afterPrefix = decoded != null && decoded.charAt(0) == 'P';
    boolean rollUp = delimiter != null && !delimiter.isEmpty();
    List<ObjectInfo> found = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    String last = null;
    boolean lastIsPrefix = false;
    long now = now();
    Map<String, Obj> from = after != null ? objects.tailMap(after, false)
        : startAfter != null && S3Etags.KEY_ORDER.compare(startAfter, prefix) >= 0 ? objects.tailMap(startAfter, false)
        : objects.tailMap(prefix, true);
    for (Map.Entry<String, Obj> e : from.entrySet()) {
      String k = e.getKey();
      if (!k.startsWith(prefix)) {
        break;
      }
      if (afterPrefix && k.startsWith(after)) {
        continue; // inside the common prefix the last page ended with
      }
      if (!visibleInListing(k, e.getValue(), now)) {
        continue;
      }
      int d = rollUp ? k.indexOf(delimiter, prefix.length()) : -1;
      String entry = d >= 0 ? k.substring(0, d + delimiter.length()) : k;
      if (entry.equals(last)) {
        continue; // a further key of the common prefix just listed
      }
      if (found.size() + prefixes.size() == max) {
        return new ListPage(found, prefixes, Base64.getUrlEncoder().encodeToString(
            ((lastIsPrefix ? "P" : "K") + last).getBytes(StandardCharsets.UTF_8)));
      }
      if (d >= 0) {
        prefixes.add(entry);
      } else {
        found.add(e.getValue().info(k));
      }
      last = entry;
      lastIsPrefix = d >= 0;
    }
    return new ListPage(found, prefixes, null);
  }

  /**
   * A page of object versions as an unversioned bucket answers it: each object one current version with id
   * {@code "null"}, after {@code keyMarker} (exclusive), no delete markers.
   */
  VersionPage listVersions(String prefix, String keyMarker, int maxKeys) {
    int max = Math.max(1, Math.min(maxKeys, 1000));
    List<ObjectVersion> found = new ArrayList<>();
    long now = now();
    Map<String, Obj> from = keyMarker == null ? objects.tailMap(prefix, true) : objects.tailMap(keyMarker, false);
    for (Map.Entry<String, Obj> e : from.entrySet()) {
      String k = e.getKey();
      if (!k.startsWith(prefix)) {
        break;
      }
      if (!visibleInListing(k, e.getValue(), now)) {
        continue;
      }
      if (found.size() == max) {
        ObjectVersion last = found.get(max - 1);
        return new VersionPage(found, last.key(), last.versionId());
      }
      ObjectInfo o = e.getValue().info(k);
      found.add(new ObjectVersion(k, "null", true, false, o.size(), o.lastModified()));
    }
    return new VersionPage(found, null, null);
  }

  private boolean visibleInListing(String key, Obj o, long now) {
    return !hiddenKeys.contains(key) && (hideNewKeysMs <= 0 || now - o.writtenAt >= hideNewKeysMs);
  }

  void hideFromListing(String key) {
    hiddenKeys.add(key);
  }

  void hideNewKeysFromListing(long windowMs) {
    hideNewKeysMs = windowMs;
  }

  void showAllInListing() {
    hiddenKeys.clear();
    hideNewKeysMs = 0;
  }

  // ----------------------------------------------------------------------------------------- multipart

  synchronized MultipartUpload initiate(String key) {
    long n = ++seq;
    String id = "upload-" + n + "-" + Long.toHexString(Double.doubleToLongBits(Math.random()));
    long now = now();
    uploads.put(id, new Upload(key, id, now, n));
    return new MultipartUpload(key, id, now);
  }

  private Upload upload(MultipartUpload u, String op) throws IOException {
    Upload up = uploads.get(u.uploadId());
    if (up == null || !up.key.equals(u.key())) {
      throw new FileNotFoundException(pathOf(u.key()) + ": " + op + ": no such multipart upload (completed or"
          + " aborted already?) on in-memory bucket " + name);
    }
    return up;
  }

  synchronized UploadedPart putPart(MultipartUpload u, int partNumber, byte[] data) throws IOException {
    Upload up = upload(u, "upload part");
    UploadedPart p = new UploadedPart(partNumber, S3Etags.ofBytes(data), data.length);
    up.parts.put(partNumber, p);
    up.data.put(partNumber, data);
    return p;
  }

  synchronized ObjectInfo complete(MultipartUpload u, List<UploadedPart> parts, WriteCondition c)
      throws IOException {
    String op = "complete multipart upload";
    Upload up = upload(u, op);
    List<UploadedPart> sorted = new ArrayList<>(parts);
    sorted.sort(Comparator.comparingInt(UploadedPart::partNumber));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<String> etags = new ArrayList<>();
    for (int i = 0; i < sorted.size(); i++) {
      UploadedPart given = sorted.get(i);
      UploadedPart stored = up.parts.get(given.partNumber());
      if (i > 0 && sorted.get(i - 1).partNumber() == given.partNumber()) {
        throw new PathIOException(pathOf(u.key()), op + " failed: 400 InvalidPartOrder (part "
            + given.partNumber() + " listed twice)");
      }
      if (stored == null || !stored.etag().equals(given.etag())) {
        throw new PathIOException(pathOf(u.key()), op + " failed: 400 InvalidPart (" + given + " was not"
            + " uploaded" + (stored == null ? "" : "; the stored part has ETag " + stored.etag()) + ")");
      }
      if (i < sorted.size() - 1 && stored.size() < MIN_PART_SIZE) {
        throw new PathIOException(pathOf(u.key()), op + " failed: 400 EntityTooSmall (" + stored
            + " is below 5 MiB and not the last part)");
      }
      out.writeBytes(up.data.get(given.partNumber()));
      etags.add(stored.etag());
    }
    checkCondition(u.key(), c, op); // refused: the upload stays open, so that the caller can abort it
    String etag = S3Etags.ofParts(etags);
    byte[] data = out.toByteArray();
    objects.put(u.key(), new Obj(data, etag, now()));
    uploads.remove(up.id);
    return new ObjectInfo(u.key(), data.length, etag, 0);
  }

  /** False when there was no such upload. */
  synchronized boolean abort(MultipartUpload u) {
    Upload up = uploads.get(u.uploadId());
    if (up == null || !up.key.equals(u.key())) {
      return false;
    }
    uploads.remove(u.uploadId());
    return true;
  }

  /** Incomplete uploads under a prefix, by key and then initiation, as S3 lists them. */
  synchronized List<MultipartUpload> uploads(String prefix) {
    return uploads.values().stream().filter(up -> up.key.startsWith(prefix))
        .sorted(Comparator.comparing((Upload up) -> up.key, S3Etags.KEY_ORDER).thenComparingLong(up -> up.seq))
        .map(up -> new MultipartUpload(up.key, up.id, up.initiated - Math.floorMod(up.initiated, 1000L)))
        .collect(Collectors.toList());
  }

  // ------------------------------------------------------------------------------------ counts and faults

  synchronized void record(S3Operation op, int status, boolean conditionalRequest) {
    counts.computeIfAbsent(op, k -> new TreeMap<>()).merge(status, 1L, Long::sum);
    if (conditionalRequest) {
      conditional.merge(op, 1L, Long::sum);
    }
  }

  synchronized InMemoryRequestCounts counts() {
    return new InMemoryRequestCounts(counts, conditional);
  }

  synchronized void resetCounts() {
    counts.clear();
    conditional.clear();
    maxInFlight.set(inFlight.get());
  }

  // ----------------------------------------------------------------------------- latency and concurrency

  void setLatency(long millis) {
    this.latencyMs = millis;
  }

  /** A request begins: counted as in flight, then held for the bucket's latency (outside every lock). */
  void enterRequest() throws InterruptedIOException {
    maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    long ms = latencyMs;
    if (ms > 0) {
      try {
        Thread.sleep(ms);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        inFlight.decrementAndGet();
        throw new InterruptedIOException("interrupted during the simulated latency of " + name);
      }
    }
  }

  void exitRequest() {
    inFlight.decrementAndGet();
  }

  int maxInFlight() {
    return maxInFlight.get();
  }

  void addFault(FaultRule rule) {
    faults.add(new Installed(rule));
  }

  void clearFaults() {
    faults.clear();
  }

  void addHook(RequestHook hook) {
    hooks.add(hook);
  }

  /** The hook (not run yet) this request fires, or null; a hook that fires is removed. */
  RequestHook hook(S3Operation op, Collection<String> keys) {
    for (RequestHook h : hooks) {
      if (h.claim(op, keys)) {
        hooks.remove(h);
        return h;
      }
    }
    return null;
  }

  /** The first installed rule that fires on this request, or null; every matching rule counts the match. */
  FaultRule fault(S3Operation op, Collection<String> keys) {
    FaultRule firing = null;
    for (Installed f : faults) {
      if (f.rule.matches(op, keys) && f.rule.fires(f.matches.incrementAndGet()) && firing == null) {
        firing = f.rule;
      }
    }
    return firing;
  }
}
