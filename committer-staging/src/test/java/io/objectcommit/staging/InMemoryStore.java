package io.objectcommit.staging;

import io.objectcommit.fs.ListPage;
import io.objectcommit.fs.MultipartUpload;
import io.objectcommit.fs.ObjectChangedException;
import io.objectcommit.fs.ObjectInfo;
import io.objectcommit.fs.ObjectStore;
import io.objectcommit.fs.Payload;
import io.objectcommit.fs.StoreCapabilities;
import io.objectcommit.fs.StoredBytes;
import io.objectcommit.fs.UploadedPart;
import io.objectcommit.fs.WriteCondition;
import io.objectcommit.fs.statistics.StoreStatistics;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.PathIOException;

/**
 * An {@link ObjectStore} in memory, strongly consistent except where a test hides keys from LIST, with a request
 * counter per operation and a hook that fails chosen requests. Part payloads are kept (so completed objects can be
 * compared byte for byte) unless {@link #keepPartData} is off.
 */
final class InMemoryStore implements ObjectStore {

  static final class Upload {
    final String key;
    final long initiated;
    final Map<Integer, byte[]> parts = new ConcurrentHashMap<>();

    Upload(String key, long initiated) {
      this.key = key;
      this.initiated = initiated;
    }
  }

  private final String bucket;
  final ConcurrentSkipListMap<String, byte[]> objects = new ConcurrentSkipListMap<>();
  private final Map<String, String> etags = new ConcurrentHashMap<>();
  final ConcurrentSkipListMap<String, Upload> uploads = new ConcurrentSkipListMap<>(); // by upload id
  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private final StoreStatistics statistics = new StoreStatistics();
  volatile boolean keepPartData = true;
  volatile long now = 1_000_000;
  /** Requests "op key" for which this returns true fail with an IOException. */
  volatile Predicate<String> failing = r -> false;
  /** Keys LIST does not show (an inconsistent listing). */
  final Set<String> hiddenFromList = ConcurrentHashMap.newKeySet();

  InMemoryStore(String bucket) {
    this.bucket = bucket;
  }

  private void request(String op, String key) throws IOException {
    counts.computeIfAbsent(op, k -> new AtomicLong()).incrementAndGet();
    if (failing.test(op + " " + key)) {
      throw new PathIOException(pathOf(key), "injected failure of " + op);
    }
  }

  long count(String op) {
    AtomicLong n = counts.get(op);
    return n == null ? 0 : n.get();
  }

  Map<String, Long> counts() {
    Map<String, Long> m = new TreeMap<>();
    counts.forEach((k, v) -> m.put(k, v.get()));
    return m;
  }

  void resetCounts() {
    counts.clear();
  }

  @Override
  public String bucket() {
    return bucket;
  }

  private static byte[] read(Payload p) throws IOException {
    try (InputStream in = p.open()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toByteArray();
    }
  }

  @Override
  public synchronized ObjectInfo put(String key, Payload payload, WriteCondition condition) throws IOException {
    request("PUT", key);
    checkCondition(key, condition);
    byte[] data = read(payload);
    return store(key, data);
  }

  private void checkCondition(String key, WriteCondition condition) throws IOException {
    if (condition.kind() == WriteCondition.Kind.IF_ABSENT && objects.containsKey(key)) {
      throw new FileAlreadyExistsException(pathOf(key) + " exists");
    }
    if (condition.kind() == WriteCondition.Kind.IF_MATCH) {
      if (!objects.containsKey(key)) {
        throw new FileNotFoundException(pathOf(key));
      }
      if (!condition.etag().equals(etags.get(key))) {
        throw new ObjectChangedException(pathOf(key), "put", condition.etag());
      }
    }
  }

  private ObjectInfo store(String key, byte[] data) {
    objects.put(key, data);
    String etag = "e" + ids.incrementAndGet();
    etags.put(key, etag);
    return new ObjectInfo(key, data.length, etag, now);
  }

  @Override
  public StoredBytes getBytes(String key) throws IOException {
    request("GET", key);
    byte[] d = objects.get(key);
    if (d == null) {
      throw new FileNotFoundException(pathOf(key));
    }
    return new StoredBytes(new ObjectInfo(key, d.length, etags.get(key), now), d);
  }

  @Override
  public Optional<StoredBytes> getBytesIfChanged(String key, String etag) throws IOException {
    StoredBytes b = getBytes(key);
    return etag.equals(b.info().etag()) ? Optional.empty() : Optional.of(b);
  }

  @Override
  public InputStream open(String key, long start, long end) throws IOException {
    byte[] d = getBytes(key).data();
    int e = end < 0 ? d.length : (int) end;
    return new ByteArrayInputStream(d, (int) start, e - (int) start);
  }

  @Override
  public Optional<ObjectInfo> head(String key) throws IOException {
    request("HEAD", key);
    byte[] d = objects.get(key);
    return d == null ? Optional.empty() : Optional.of(new ObjectInfo(key, d.length, etags.get(key), now));
  }

  @Override
  public ListPage list(String prefix, String delimiter, String continuationToken, int maxKeys) throws IOException {
    request("LIST", prefix);
    List<ObjectInfo> objs = new ArrayList<>();
    TreeSet<String> prefixes = new TreeSet<>();
    String from = continuationToken == null ? prefix : continuationToken;
    String next = null;
    int n = 0;
    for (Map.Entry<String, byte[]> e : objects.tailMap(from, continuationToken == null).entrySet()) {
      String k = e.getKey();
      if (!k.startsWith(prefix)) {
        break;
      }
      if (hiddenFromList.contains(k)) {
        continue;
      }
      if (n == Math.min(maxKeys, 1000)) {
        next = objs.isEmpty() ? k : objs.get(objs.size() - 1).key();
        break;
      }
      String rest = k.substring(prefix.length());
      int d = delimiter == null ? -1 : rest.indexOf(delimiter);
      if (d >= 0) {
        if (prefixes.add(prefix + rest.substring(0, d + delimiter.length()))) {
          n++;
        }
      } else {
        objs.add(new ObjectInfo(k, e.getValue().length, etags.get(k), now));
        n++;
      }
    }
    return new ListPage(objs, new ArrayList<>(prefixes), next);
  }

  @Override
  public void delete(String key) throws IOException {
    request("DELETE", key);
    objects.remove(key);
  }

  @Override
  public int deleteBatch(Collection<String> keys) throws IOException {
    List<String> all = new ArrayList<>(keys);
    for (int i = 0; i < all.size(); i += 1000) {
      request("BULK_DELETE", all.get(i));
      for (String k : all.subList(i, Math.min(all.size(), i + 1000))) {
        objects.remove(k);
      }
    }
    return all.size();
  }

  @Override
  public MultipartUpload initiateMultipartUpload(String key) throws IOException {
    request("MULTIPART_INITIATE", key);
    String id = "u" + ids.incrementAndGet();
    uploads.put(id, new Upload(key, now));
    return new MultipartUpload(key, id, now);
  }

  private Upload upload(MultipartUpload u) throws IOException {
    Upload up = uploads.get(u.uploadId());
    if (up == null || !up.key.equals(u.key())) {
      throw new FileNotFoundException("no " + u);
    }
    return up;
  }

  @Override
  public UploadedPart uploadPart(MultipartUpload upload, int partNumber, Payload part) throws IOException {
    request("MULTIPART_PART", upload.key());
    Upload up = upload(upload);
    byte[] data = read(part);
    up.parts.put(partNumber, keepPartData ? data : new byte[0]);
    return new UploadedPart(partNumber, "p" + upload.uploadId() + "-" + partNumber, data.length);
  }

  @Override
  public synchronized ObjectInfo completeMultipartUpload(MultipartUpload upload, List<UploadedPart> parts,
      WriteCondition condition) throws IOException {
    request("MULTIPART_COMPLETE", upload.key());
    Upload up = upload(upload);
    checkCondition(upload.key(), condition);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int expected = 1;
    for (UploadedPart p : parts) {
      byte[] d = up.parts.get(p.partNumber());
      if (p.partNumber() != expected++ || d == null
          || !p.etag().equals("p" + upload.uploadId() + "-" + p.partNumber())) {
        throw new PathIOException(pathOf(upload.key()), "bad part list at " + p);
      }
      out.write(d);
    }
    if (parts.size() != up.parts.size()) {
      throw new PathIOException(pathOf(upload.key()), "parts missing from the list");
    }
    uploads.remove(upload.uploadId());
    return store(upload.key(), out.toByteArray());
  }

  @Override
  public void abortMultipartUpload(MultipartUpload upload) throws IOException {
    request("MULTIPART_ABORT", upload.key());
    uploads.remove(upload.uploadId());
  }

  @Override
  public List<MultipartUpload> listMultipartUploads(String prefix) throws IOException {
    request("MULTIPART_LIST", prefix);
    List<MultipartUpload> l = new ArrayList<>();
    uploads.forEach((id, u) -> {
      if (u.key.startsWith(prefix)) {
        l.add(new MultipartUpload(u.key, id, u.initiated));
      }
    });
    return l;
  }

  /** Pending uploads whose key starts with {@code prefix} (no request counted). */
  long pendingUnder(String prefix) {
    return uploads.values().stream().filter(u -> u.key.startsWith(prefix)).count();
  }

  /** Object keys under {@code prefix} (no request counted). */
  List<String> keys(String prefix) {
    List<String> l = new ArrayList<>();
    for (String k : objects.tailMap(prefix, true).keySet()) {
      if (!k.startsWith(prefix)) {
        break;
      }
      l.add(k);
    }
    return l;
  }

  @Override
  public StoreCapabilities capabilities() {
    return new StoreCapabilities(StoreCapabilities.ConditionalWrites.VERIFIED);
  }

  @Override
  public StoreStatistics statistics() {
    return statistics;
  }

  @Override
  public void close() {
  }
}
