package io.objectcommit.store;

import io.objectcommit.store.guarantee.ProbeSite;
import io.objectcommit.store.guarantee.StoreGuarantee;
import io.objectcommit.store.statistics.StoreStatistics;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An {@link ObjectStore} that passes every call to another: the base of decorators, which override only what they
 * change (the guarantee policy around the S3 store; in tests, stores broken the way real ones are). The interface's
 * {@link #createExclusive} and {@link #replaceIfMatch} stay its defaults, so they go through this store's
 * {@link #put}. Closing it closes the store it decorates.
 */
public abstract class ForwardingObjectStore implements ObjectStore {

  private final ObjectStore delegate;

  protected ForwardingObjectStore(ObjectStore delegate) {
    this.delegate = delegate;
  }

  /** The store this one passes calls to. */
  protected ObjectStore delegate() {
    return delegate;
  }

  @Override
  public String bucket() {
    return delegate.bucket();
  }

  @Override
  public ObjectInfo put(String key, Payload payload, WriteCondition condition) throws IOException {
    return delegate.put(key, payload, condition);
  }

  @Override
  public StoredBytes getBytes(String key) throws IOException {
    return delegate.getBytes(key);
  }

  @Override
  public Optional<StoredBytes> getBytesIfChanged(String key, String etag) throws IOException {
    return delegate.getBytesIfChanged(key, etag);
  }

  @Override
  public InputStream open(String key, long start, long end, String ifMatchEtag) throws IOException {
    return delegate.open(key, start, end, ifMatchEtag);
  }

  @Override
  public Optional<ObjectInfo> head(String key) throws IOException {
    return delegate.head(key);
  }

  @Override
  public ListPage list(String prefix, String delimiter, String continuationToken, int maxKeys) throws IOException {
    return delegate.list(prefix, delimiter, continuationToken, maxKeys);
  }

  @Override
  public ListPage list(String prefix, String delimiter, String startAfter, String continuationToken, int maxKeys)
      throws IOException {
    return delegate.list(prefix, delimiter, startAfter, continuationToken, maxKeys);
  }

  @Override
  public VersionPage listVersions(String prefix, String keyMarker, String versionIdMarker, int maxKeys)
      throws IOException {
    return delegate.listVersions(prefix, keyMarker, versionIdMarker, maxKeys);
  }

  @Override
  public ObjectInfo copy(String sourceKey, String sourceEtag, String targetKey) throws IOException {
    return delegate.copy(sourceKey, sourceEtag, targetKey);
  }

  @Override
  public void delete(String key) throws IOException {
    delegate.delete(key);
  }

  @Override
  public void delete(String key, String ifMatchEtag) throws IOException {
    delegate.delete(key, ifMatchEtag);
  }

  @Override
  public boolean conditionalDeletes(String component, ProbeSite site) throws IOException {
    return delegate.conditionalDeletes(component, site);
  }

  @Override
  public int deleteBatch(Collection<String> keys) throws IOException {
    return delegate.deleteBatch(keys);
  }

  @Override
  public MultipartUpload initiateMultipartUpload(String key) throws IOException {
    return delegate.initiateMultipartUpload(key);
  }

  @Override
  public UploadedPart uploadPart(MultipartUpload upload, int partNumber, Payload part) throws IOException {
    return delegate.uploadPart(upload, partNumber, part);
  }

  @Override
  public ObjectInfo completeMultipartUpload(MultipartUpload upload, List<UploadedPart> parts,
      WriteCondition condition) throws IOException {
    return delegate.completeMultipartUpload(upload, parts, condition);
  }

  @Override
  public void abortMultipartUpload(MultipartUpload upload) throws IOException {
    delegate.abortMultipartUpload(upload);
  }

  @Override
  public List<MultipartUpload> listMultipartUploads(String prefix) throws IOException {
    return delegate.listMultipartUploads(prefix);
  }

  @Override
  public StoreCapabilities capabilities() throws IOException {
    return delegate.capabilities();
  }

  @Override
  public StoreCapabilities capabilities(String operation) throws IOException {
    return delegate.capabilities(operation);
  }

  @Override
  public void requireGuarantees(Set<StoreGuarantee> needed, String component) throws IOException {
    delegate.requireGuarantees(needed, component);
  }

  @Override
  public void requireGuarantees(Set<StoreGuarantee> needed, String component, ProbeSite site) throws IOException {
    delegate.requireGuarantees(needed, component, site);
  }

  @Override
  public StoreStatistics statistics() {
    return delegate.statistics();
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
