package io.objectcommit.direct;

import io.objectcommit.direct.impl.StoreFactory;
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
import io.objectcommit.fs.statistics.StoreStatisticNames;
import io.objectcommit.fs.statistics.StoreStatistics;
import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.PathIOException;

/**
 * An in-memory bucket behind the {@link ObjectStore} interface, for unit tests: conditional writes, ETags,
 * ranged reads, listings, and per-operation counts shared by every store opened on it ({@link #counts()}). A hook
 * can fail chosen requests.
 */
public final class InMemoryStore implements ObjectStore {

  /** Buckets by name, shared by every store the {@link Factory} opens. */
  private static final Map<String, Bucket> BUCKETS = new ConcurrentHashMap<>();

  /** Fails a request when it returns an exception. */
  public interface Fault {
    IOException check(String op, String key);
  }

  /** The data of one bucket. */
  public static final class Bucket {
    final TreeMap<String, byte[]> objects = new TreeMap<>();
    final Map<String, String> etags = new ConcurrentHashMap<>();
    final StoreStatistics counts = new StoreStatistics();
    final AtomicLong etagSeq = new AtomicLong();
    volatile Fault fault;
  }

  /** The {@link StoreFactory} of the tests: stores on the shared in-memory buckets. */
  public static final class Factory implements StoreFactory {
    @Override
    public ObjectStore open(String bucket, Configuration conf) {
      return new InMemoryStore(bucket);
    }
  }

  /** A fresh bucket (forgetting an earlier one of that name). */
  public static Bucket reset(String bucket) {
    Bucket b = new Bucket();
    BUCKETS.put(bucket, b);
    return b;
  }

  public static Bucket bucketData(String bucket) {
    return BUCKETS.computeIfAbsent(bucket, k -> new Bucket());
  }

  private final String bucket;
  private final Bucket data;
  private final StoreStatistics statistics = new StoreStatistics();

  public InMemoryStore(String bucket) {
    this.bucket = bucket;
    this.data = bucketData(bucket);
  }

  /** Requests of every store on this bucket. */
  public static StoreStatistics.Snapshot counts(String bucket) {
    return bucketData(bucket).counts.snapshot();
  }

  public static void setFault(String bucket, Fault f) {
    bucketData(bucket).fault = f;
  }

  /** The keys stored, sorted. */
  public static List<String> keys(String bucket) {
    Bucket b = bucketData(bucket);
    synchronized (b) {
      return new ArrayList<>(b.objects.keySet());
    }
  }

  public static byte[] bytes(String bucket, String key) {
    Bucket b = bucketData(bucket);
    synchronized (b) {
      return b.objects.get(key);
    }
  }

  private void count(String op, String key) throws IOException {
    statistics.recordRequest(op, 0, false);
    data.counts.recordRequest(op, 0, false);
    Fault f = data.fault;
    if (f != null) {
      IOException e = f.check(op, key);
      if (e != null) {
        throw e;
      }
    }
  }

  @Override
  public String bucket() {
    return bucket;
  }

  @Override
  public ObjectInfo put(String key, Payload payload, WriteCondition condition) throws IOException {
    count(condition.isConditional() ? StoreStatisticNames.OP_PUT_CONDITIONAL : StoreStatisticNames.OP_PUT, key);
    byte[] bytes;
    try (InputStream in = payload.open()) {
      bytes = in.readAllBytes();
    }
    synchronized (data) {
      String current = data.etags.get(key);
      switch (condition.kind()) {
        case IF_ABSENT:
          if (current != null) {
            throw new FileAlreadyExistsException(pathOf(key) + ": exists");
          }
          break;
        case IF_MATCH:
          if (current == null) {
            throw new FileNotFoundException(pathOf(key));
          }
          if (!current.equals(condition.etag())) {
            throw new ObjectChangedException(pathOf(key), "put", condition.etag());
          }
          break;
        default:
          break;
      }
      String etag = "e" + data.etagSeq.incrementAndGet();
      data.objects.put(key, bytes);
      data.etags.put(key, etag);
      return new ObjectInfo(key, bytes.length, etag, System.currentTimeMillis());
    }
  }

  @Override
  public StoredBytes getBytes(String key) throws IOException {
    count(StoreStatisticNames.OP_GET, key);
    synchronized (data) {
      byte[] b = data.objects.get(key);
      if (b == null) {
        throw new FileNotFoundException(pathOf(key));
      }
      return new StoredBytes(new ObjectInfo(key, b.length, data.etags.get(key), 0), b);
    }
  }

  @Override
  public java.util.Optional<StoredBytes> getBytesIfChanged(String key, String etag) throws IOException {
    StoredBytes b = getBytes(key);
    return etag.equals(b.info().etag()) ? java.util.Optional.empty() : java.util.Optional.of(b);
  }

  @Override
  public InputStream open(String key, long start, long end) throws IOException {
    count(StoreStatisticNames.OP_GET, key);
    synchronized (data) {
      byte[] b = data.objects.get(key);
      if (b == null) {
        throw new FileNotFoundException(pathOf(key));
      }
      int e = end < 0 ? b.length : (int) Math.min(end, b.length);
      return new ByteArrayInputStream(Arrays.copyOfRange(b, (int) start, e));
    }
  }

  @Override
  public Optional<ObjectInfo> head(String key) throws IOException {
    count(StoreStatisticNames.OP_HEAD, key);
    synchronized (data) {
      byte[] b = data.objects.get(key);
      return b == null ? Optional.empty() : Optional.of(new ObjectInfo(key, b.length, data.etags.get(key), 0));
    }
  }

  @Override
  public ListPage list(String prefix, String delimiter, String continuationToken, int maxKeys) throws IOException {
    count(StoreStatisticNames.OP_LIST, prefix);
    List<ObjectInfo> out = new ArrayList<>();
    String next = null;
    synchronized (data) {
      for (Map.Entry<String, byte[]> e : data.objects.tailMap(continuationToken == null ? prefix
          : continuationToken, continuationToken == null).entrySet()) {
        if (!e.getKey().startsWith(prefix)) {
          break;
        }
        if (out.size() == maxKeys) {
          next = out.get(out.size() - 1).key();
          break;
        }
        out.add(new ObjectInfo(e.getKey(), e.getValue().length, data.etags.get(e.getKey()), 0));
      }
    }
    return new ListPage(out, List.of(), next);
  }

  @Override
  public void delete(String key) throws IOException {
    count(StoreStatisticNames.OP_DELETE, key);
    synchronized (data) {
      data.objects.remove(key);
      data.etags.remove(key);
    }
  }

  @Override
  public int deleteBatch(Collection<String> keys) throws IOException {
    List<String> all = new ArrayList<>(keys);
    for (int i = 0; i < all.size(); i += 1000) {
      List<String> batch = all.subList(i, Math.min(all.size(), i + 1000));
      count(StoreStatisticNames.OP_DELETE_BULK, batch.get(0));
      synchronized (data) {
        for (String k : batch) {
          data.objects.remove(k);
          data.etags.remove(k);
        }
      }
    }
    return all.size();
  }

  @Override
  public MultipartUpload initiateMultipartUpload(String key) throws IOException {
    throw new PathIOException(pathOf(key), "multipart not supported by the in-memory store");
  }

  @Override
  public UploadedPart uploadPart(MultipartUpload upload, int partNumber, Payload part) throws IOException {
    throw new UnsupportedOperationException();
  }

  @Override
  public ObjectInfo completeMultipartUpload(MultipartUpload upload, List<UploadedPart> parts,
      WriteCondition condition) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void abortMultipartUpload(MultipartUpload upload) {
    throw new UnsupportedOperationException();
  }

  @Override
  public List<MultipartUpload> listMultipartUploads(String prefix) {
    return List.of();
  }

  @Override
  public StoreCapabilities capabilities() {
    return new StoreCapabilities(StoreCapabilities.ConditionalWrites.ASSUMED);
  }

  @Override
  public StoreStatistics statistics() {
    return statistics;
  }

  @Override
  public void close() {
  }
}
