package io.objectcommit.store.guarantee;

import io.objectcommit.store.ListPage;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoreCapabilities;
import io.objectcommit.store.StoredBytes;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.statistics.StoreStatistics;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Delegates everything; subclasses break one behaviour. Closing it does not close the inner store. */
class BrokenStore implements ObjectStore {
  private final ObjectStore inner;

  BrokenStore(ObjectStore inner) {
    this.inner = inner;
  }

  @Override
  public String bucket() {
    return inner.bucket();
  }

  @Override
  public ObjectInfo put(String key, Payload payload, WriteCondition condition) throws IOException {
    return inner.put(key, payload, condition);
  }

  @Override
  public StoredBytes getBytes(String key) throws IOException {
    return inner.getBytes(key);
  }

  @Override
  public Optional<StoredBytes> getBytesIfChanged(String key, String etag) throws IOException {
    return inner.getBytesIfChanged(key, etag);
  }

  @Override
  public InputStream open(String key, long start, long end) throws IOException {
    return inner.open(key, start, end);
  }

  @Override
  public Optional<ObjectInfo> head(String key) throws IOException {
    return inner.head(key);
  }

  @Override
  public ListPage list(String prefix, String delimiter, String token, int maxKeys) throws IOException {
    return inner.list(prefix, delimiter, token, maxKeys);
  }

  @Override
  public void delete(String key) throws IOException {
    inner.delete(key);
  }

  @Override
  public int deleteBatch(Collection<String> keys) throws IOException {
    return inner.deleteBatch(keys);
  }

  @Override
  public MultipartUpload initiateMultipartUpload(String key) throws IOException {
    return inner.initiateMultipartUpload(key);
  }

  @Override
  public UploadedPart uploadPart(MultipartUpload upload, int partNumber, Payload part) throws IOException {
    return inner.uploadPart(upload, partNumber, part);
  }

  @Override
  public ObjectInfo completeMultipartUpload(MultipartUpload upload, List<UploadedPart> parts,
      WriteCondition condition) throws IOException {
    return inner.completeMultipartUpload(upload, parts, condition);
  }

  @Override
  public void abortMultipartUpload(MultipartUpload upload) throws IOException {
    inner.abortMultipartUpload(upload);
  }

  @Override
  public List<MultipartUpload> listMultipartUploads(String prefix) throws IOException {
    return inner.listMultipartUploads(prefix);
  }

  @Override
  public StoreCapabilities capabilities() throws IOException {
    return inner.capabilities();
  }

  @Override
  public StoreStatistics statistics() {
    return inner.statistics();
  }

  @Override
  public void close() {
  }
}
