package io.objectcommit.store.impl;

import io.objectcommit.store.ListPage;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoredBytes;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.VersionPage;
import io.objectcommit.store.WriteCondition;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * The seam between the store module and an AWS SDK: one method per S3 request objectcommit sends, on one bucket, with our
 * own value types. Each SDK has one binding ({@code impl.v1} on SDK v1, {@code impl.v2} on SDK v2); everything
 * above it (conditions and their refusal, the write-id recognition of our own write, multipart ETags, retries,
 * error translation, statistics) is written once, SDK-free.
 *
 * <p>Keep it small. Each method sends exactly one request and does not retry. Every failure is thrown as one
 * {@link RequestFailure} (status, error code, request id, or the network problem), the SDK's exception as its
 * cause; nothing else of the SDK leaks through. Implementations are thread-safe.
 */
public interface S3Calls {

  /** User metadata carrying the unique id of each write, to recognise our own earlier success on a retry. */
  String WRITE_ID = "objectcommit-write-id";

  /** Which SDK sends the requests: {@code v1} or {@code v2}. */
  String sdk();

  /**
   * PutObject of a repeatable payload with the condition's header ({@link WriteConditions}), the write id in the
   * user metadata and the encryption headers. Returns the new object's ETag.
   *
   * @throws IOException when the payload cannot be read (not a request failure: not retried)
   */
  String put(String key, Payload payload, WriteCondition condition, String writeId) throws IOException;

  /** HeadObject; a missing object is a {@link RequestFailure} with status 404. */
  ObjectHead head(String key) throws RequestFailure;

  /**
   * GetObject of the whole object, read completely (a failure while reading the body is a retryable
   * {@link RequestFailure}); with {@code ifNoneMatchEtag}, empty when the object still has that ETag (304).
   */
  Optional<StoredBytes> get(String key, String ifNoneMatchEtag) throws RequestFailure;

  /**
   * GetObject of bytes {@code [start, end)}, {@code end < 0} for the rest; the caller closes the body. With
   * {@code ifMatchEtag} (null: none) the request carries {@code If-Match}: a {@link RequestFailure} with status 412
   * when the object has another ETag.
   */
  ObjectBody getRange(String key, long start, long end, String ifMatchEtag) throws RequestFailure;

  /** HeadBucket; a missing bucket is a {@link RequestFailure} with status 404. */
  void headBucket() throws RequestFailure;

  /**
   * CopyObject of {@code sourceKey} to {@code targetKey} in the bucket, only while the source has ETag
   * {@code sourceEtag} ({@code x-amz-copy-source-if-match}: 412 otherwise; null: no condition), with the write id as the copy's user
   * metadata (the source's is replaced) and the encryption headers. Returns the copy's ETag.
   */
  String copy(String sourceKey, String sourceEtag, String targetKey, String writeId) throws RequestFailure;

  /** DeleteObject (a missing object counts as deleted). */
  void delete(String key) throws RequestFailure;

  /**
   * DeleteObject with {@code If-Match: "<etag>"}: deletes only while the object has that ETag (412 otherwise; a
   * missing object is a 404 on Amazon S3, a 204 on some stores). Neither SDK version we build with has a setter for
   * it (SDK v1 1.12.262, SDK v2 2.24.6): the header is added to the request as it is.
   */
  void deleteIfMatch(String key, String etag) throws RequestFailure;

  /**
   * DeleteObjects of at most 1000 keys, quiet. Keys the store refused are a {@link RequestFailure} carrying them
   * ({@link RequestFailure#refusedKeys()}).
   */
  void deleteBatch(List<String> keys) throws RequestFailure;

  /** ListObjectsV2, one page; {@code startAfter} (null for none) is its {@code start-after}. */
  ListPage list(String prefix, String delimiter, String startAfter, String continuationToken, int maxKeys)
      throws RequestFailure;

  /** ListObjectVersions, one page from the markers (null for the first). */
  VersionPage listVersions(String prefix, String keyMarker, String versionIdMarker, int maxKeys)
      throws RequestFailure;

  /** CreateMultipartUpload with the write id and the encryption headers; returns the upload id. */
  String initiateMultipart(String key, String writeId) throws RequestFailure;

  /** UploadPart of a repeatable payload (bytes or a file range); returns the part's ETag. */
  String uploadPart(String key, String uploadId, int partNumber, Payload part) throws IOException;

  /** CompleteMultipartUpload of parts in order, with the condition's header; returns the object's ETag. */
  String completeMultipart(String key, String uploadId, List<UploadedPart> parts, WriteCondition condition)
      throws RequestFailure;

  /** AbortMultipartUpload; an unknown upload is a {@link RequestFailure} with status 404. */
  void abortMultipart(String key, String uploadId) throws RequestFailure;

  /** ListMultipartUploads, one page from the markers (null for the first). */
  UploadsPage listMultipartUploads(String prefix, String keyMarker, String uploadIdMarker) throws RequestFailure;

  /** What a HEAD tells: the object, and the write id in its user metadata (null when absent). */
  final class ObjectHead {
    private final ObjectInfo info;
    private final String writeId;

    public ObjectHead(ObjectInfo info, String writeId) {
      this.info = info;
      this.writeId = writeId;
    }

    public ObjectInfo info() {
      return info;
    }

    public String writeId() {
      return writeId;
    }
  }

  /** The body of a ranged GET: its content, and a way to drop the connection instead of draining it. */
  interface ObjectBody extends Closeable {
    InputStream content();

    /** Drops the connection without reading the rest. */
    void abort();
  }

  /** One page of ListMultipartUploads. */
  final class UploadsPage {
    private final List<MultipartUpload> uploads;
    private final boolean truncated;
    private final String nextKeyMarker;
    private final String nextUploadIdMarker;

    public UploadsPage(List<MultipartUpload> uploads, boolean truncated, String nextKeyMarker,
        String nextUploadIdMarker) {
      this.uploads = List.copyOf(uploads);
      this.truncated = truncated;
      this.nextKeyMarker = nextKeyMarker;
      this.nextUploadIdMarker = nextUploadIdMarker;
    }

    public List<MultipartUpload> uploads() {
      return uploads;
    }

    public boolean truncated() {
      return truncated;
    }

    public String nextKeyMarker() {
      return nextKeyMarker;
    }

    public String nextUploadIdMarker() {
      return nextUploadIdMarker;
    }
  }
}
