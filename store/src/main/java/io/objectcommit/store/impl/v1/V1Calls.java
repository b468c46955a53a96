package io.objectcommit.store.impl.v1;

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

import com.amazonaws.AbortedException;
import com.amazonaws.AmazonClientException;
import com.amazonaws.AmazonServiceException;
import com.amazonaws.AmazonWebServiceRequest;
import com.amazonaws.services.s3.AmazonS3;
import com.amazonaws.services.s3.model.AbortMultipartUploadRequest;
import com.amazonaws.services.s3.model.CompleteMultipartUploadRequest;
import com.amazonaws.services.s3.model.CopyObjectRequest;
import com.amazonaws.services.s3.model.CopyObjectResult;
import com.amazonaws.services.s3.model.DeleteObjectRequest;
import com.amazonaws.services.s3.model.DeleteObjectsRequest;
import com.amazonaws.services.s3.model.GetObjectMetadataRequest;
import com.amazonaws.services.s3.model.GetObjectRequest;
import com.amazonaws.services.s3.model.HeadBucketRequest;
import com.amazonaws.services.s3.model.InitiateMultipartUploadRequest;
import com.amazonaws.services.s3.model.ListMultipartUploadsRequest;
import com.amazonaws.services.s3.model.ListObjectsV2Request;
import com.amazonaws.services.s3.model.ListObjectsV2Result;
import com.amazonaws.services.s3.model.ListVersionsRequest;
import com.amazonaws.services.s3.model.MultiObjectDeleteException;
import com.amazonaws.services.s3.model.MultipartUploadListing;
import com.amazonaws.services.s3.model.ObjectMetadata;
import com.amazonaws.services.s3.model.PartETag;
import com.amazonaws.services.s3.model.PutObjectRequest;
import com.amazonaws.services.s3.model.S3Object;
import com.amazonaws.services.s3.model.UploadPartRequest;
import com.amazonaws.services.s3.model.VersionListing;
import io.objectcommit.store.ListPage;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectVersion;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoredBytes;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.VersionPage;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.audit.RequestAttribution;
import io.objectcommit.store.impl.RequestFailure;
import io.objectcommit.store.impl.S3Calls;
import io.objectcommit.store.impl.WriteConditions;
import io.objectcommit.store.impl.client.EncryptionSettings;
import java.io.IOException;
import java.io.InputStream;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@link S3Calls} on the AWS SDK for Java v1 ({@code com.amazonaws:aws-java-sdk-s3}, as Hadoop 3.3's S3A).
 * Conditions go as custom headers (the typed setters exist only from SDK 1.12.770), and so does each request's
 * attribution header ({@link RequestAttribution}); every SDK exception becomes a {@link RequestFailure}.
 * Thread-safe.
 */
public final class V1Calls implements S3Calls {

  private final String bucket;
  private final AmazonS3 s3;
  private final V1Encryption encryption;
  private final RequestAttribution attribution;

  /** Requests without the attribution header. */
  public V1Calls(String bucket, AmazonS3 s3, EncryptionSettings encryption) {
    this(bucket, s3, encryption, RequestAttribution.none());
  }

  public V1Calls(String bucket, AmazonS3 s3, EncryptionSettings encryption, RequestAttribution attribution) {
    this.bucket = bucket;
    this.s3 = s3;
    this.encryption = new V1Encryption(encryption);
    this.attribution = attribution;
  }

  /** Adds the attribution header of request {@code op} on {@code key} to {@code req}. */
  private <R extends AmazonWebServiceRequest> R attributed(R req, String op, String key) {
    String header = attribution.header(op, key);
    if (header != null) {
      req.putCustomRequestHeader(RequestAttribution.HEADER, header);
    }
    return req;
  }

  @FunctionalInterface
  private interface Send<T> {
    T send() throws RequestFailure;
  }

  private static <T> T call(Send<T> send) throws RequestFailure {
    try {
      return send.send();
    } catch (AmazonClientException e) {
      throw failure(e);
    }
  }

  /** The neutral failure of an SDK v1 exception. */
  public static RequestFailure failure(AmazonClientException e) {
    if (e instanceof MultiObjectDeleteException) {
      MultiObjectDeleteException m = (MultiObjectDeleteException) e;
      return RequestFailure.refusedKeys(m.getErrors().stream().map(d -> d.getKey() + " (" + d.getCode() + ")")
          .collect(Collectors.toList()), m.getRequestId(), e);
    }
    if (e instanceof AmazonServiceException) {
      AmazonServiceException ase = (AmazonServiceException) e;
      return RequestFailure.answer(ase.getStatusCode(), ase.getErrorCode(), ase.getErrorMessage(),
          ase.getRequestId(), e);
    }
    if (e instanceof AbortedException) {
      return RequestFailure.client(e.getMessage(), e, RequestFailure.Network.INTERRUPTED);
    }
    if (e instanceof V1NoCredentialsException) {
      return RequestFailure.client(e.getMessage(), e, RequestFailure.Network.NO_CREDENTIALS);
    }
    return RequestFailure.client(e.getMessage(), e, e.isRetryable());
  }

  @Override
  public String sdk() {
    return "v1";
  }

  private static void applyCondition(AmazonWebServiceRequest req, WriteCondition c) {
    String header = WriteConditions.headerName(c);
    if (header != null) {
      req.putCustomRequestHeader(header, WriteConditions.headerValue(c));
    }
  }

  @Override
  public String put(String key, Payload payload, WriteCondition condition, String writeId) throws IOException {
    long length = payload.length();
    InputStream in = null;
    try {
      ObjectMetadata md = new ObjectMetadata();
      md.setContentLength(length);
      md.addUserMetadata(WRITE_ID, writeId);
      PutObjectRequest req;
      if (payload instanceof Payload.FilePayload && ((Payload.FilePayload) payload).offset() == 0
          && ((Payload.FilePayload) payload).file().toFile().length() == length) {
        // A whole file (a range of one goes through its bounded stream below).
        req = new PutObjectRequest(bucket, key, ((Payload.FilePayload) payload).file().toFile()).withMetadata(md);
      } else {
        in = payload.open();
        req = new PutObjectRequest(bucket, key, in, md);
        req.getRequestClientOptions().setReadLimit((int) Math.min(Integer.MAX_VALUE, length + 1));
      }
      applyCondition(req, condition);
      encryption.applyTo(req, md);
      attributed(req, condition.isConditional() ? OP_PUT_CONDITIONAL : OP_PUT, key);
      return call(() -> s3.putObject(req).getETag());
    } finally {
      closeQuietly(in);
    }
  }

  @Override
  public ObjectHead head(String key) throws RequestFailure {
    GetObjectMetadataRequest req = attributed(new GetObjectMetadataRequest(bucket, key), OP_HEAD, key);
    encryption.applyTo(req);
    ObjectMetadata md = call(() -> s3.getObjectMetadata(req));
    return new ObjectHead(info(key, md), md.getUserMetaDataOf(WRITE_ID));
  }

  @Override
  public Optional<StoredBytes> get(String key, String ifNoneMatchEtag) throws RequestFailure {
    GetObjectRequest req = attributed(new GetObjectRequest(bucket, key), OP_GET, key);
    if (ifNoneMatchEtag != null) {
      req.setNonmatchingETagConstraints(List.of("\"" + ifNoneMatchEtag + "\""));
    }
    encryption.applyTo(req);
    S3Object got = call(() -> s3.getObject(req));
    if (got == null) {
      return Optional.empty(); // 304 Not Modified: the SDK answers null
    }
    try (S3Object o = got) {
      byte[] data = o.getObjectContent().readAllBytes();
      return Optional.of(new StoredBytes(info(key, o.getObjectMetadata()), data));
    } catch (IOException e) {
      throw RequestFailure.client("reading s3://" + bucket + "/" + key + " failed: " + e, e,
          RequestFailure.Network.RESET);
    }
  }

  @Override
  public ObjectBody getRange(String key, long start, long end, String ifMatchEtag) throws RequestFailure {
    GetObjectRequest req = attributed(new GetObjectRequest(bucket, key), OP_GET, key);
    if (end >= 0) {
      req.setRange(start, end - 1);
    } else if (start > 0) {
      req.setRange(start);
    }
    if (ifMatchEtag != null) {
      req.setMatchingETagConstraints(List.of("\"" + ifMatchEtag + "\""));
    }
    encryption.applyTo(req);
    S3Object o = call(() -> s3.getObject(req));
    if (o == null) {
      // SDK v1 answers null when an ETag constraint failed (the store's 412).
      throw RequestFailure.answer(412, "PreconditionFailed", "the object's ETag is not " + ifMatchEtag, null,
          null);
    }
    return new ObjectBody() {
      @Override
      public InputStream content() {
        return o.getObjectContent();
      }

      @Override
      public void abort() {
        o.getObjectContent().abort();
      }

      @Override
      public void close() throws IOException {
        try {
          o.getObjectContent().close();
        } finally {
          o.close();
        }
      }
    };
  }

  @Override
  public void headBucket() throws RequestFailure {
    HeadBucketRequest req = attributed(new HeadBucketRequest(bucket), OP_HEAD_BUCKET, "");
    call(() -> s3.headBucket(req));
  }

  @Override
  public String copy(String sourceKey, String sourceEtag, String targetKey, String writeId) throws RequestFailure {
    ObjectMetadata md = new ObjectMetadata();
    md.addUserMetadata(WRITE_ID, writeId);
    CopyObjectRequest req = new CopyObjectRequest(bucket, sourceKey, bucket, targetKey).withNewObjectMetadata(md);
    if (sourceEtag != null) {
      req.setMatchingETagConstraints(List.of("\"" + sourceEtag + "\""));
    }
    encryption.applyTo(req, md);
    attributed(req, OP_COPY, targetKey);
    CopyObjectResult r = call(() -> s3.copyObject(req));
    if (r == null) {
      // SDK v1 answers null when the source's ETag constraint failed (the store's 412).
      throw RequestFailure.answer(412, "PreconditionFailed", "the copy source's ETag is not " + sourceEtag, null,
          null);
    }
    return r.getETag();
  }

  @Override
  public void delete(String key) throws RequestFailure {
    DeleteObjectRequest req = attributed(new DeleteObjectRequest(bucket, key), OP_DELETE, key);
    call(() -> {
      s3.deleteObject(req);
      return null;
    });
  }

  @Override
  public void deleteIfMatch(String key, String etag) throws RequestFailure {
    DeleteObjectRequest req = attributed(new DeleteObjectRequest(bucket, key), OP_DELETE, key);
    req.putCustomRequestHeader("If-Match", "\"" + etag + "\"");
    call(() -> {
      s3.deleteObject(req);
      return null;
    });
  }

  @Override
  public void deleteBatch(List<String> keys) throws RequestFailure {
    DeleteObjectsRequest req = new DeleteObjectsRequest(bucket).withQuiet(true)
        .withKeys(keys.stream().map(DeleteObjectsRequest.KeyVersion::new).collect(Collectors.toList()));
    attributed(req, OP_DELETE_BULK, keys.isEmpty() ? "" : keys.get(0));
    call(() -> s3.deleteObjects(req));
  }

  @Override
  public ListPage list(String prefix, String delimiter, String startAfter, String continuationToken, int maxKeys)
      throws RequestFailure {
    ListObjectsV2Request req = new ListObjectsV2Request().withBucketName(bucket).withPrefix(prefix)
        .withMaxKeys(maxKeys);
    if (delimiter != null && !delimiter.isEmpty()) {
      req.setDelimiter(delimiter);
    }
    if (continuationToken != null) {
      req.setContinuationToken(continuationToken);
    } else if (startAfter != null) {
      req.setStartAfter(startAfter);
    }
    attributed(req, OP_LIST, prefix);
    ListObjectsV2Result r = call(() -> s3.listObjectsV2(req));
    List<ObjectInfo> objects = r.getObjectSummaries().stream()
        .map(s -> new ObjectInfo(s.getKey(), s.getSize(), s.getETag(), millis(s.getLastModified())))
        .collect(Collectors.toList());
    return new ListPage(objects, r.getCommonPrefixes(), r.isTruncated() ? r.getNextContinuationToken() : null);
  }

  @Override
  public VersionPage listVersions(String prefix, String keyMarker, String versionIdMarker, int maxKeys)
      throws RequestFailure {
    ListVersionsRequest req = new ListVersionsRequest().withBucketName(bucket).withPrefix(prefix)
        .withKeyMarker(keyMarker).withVersionIdMarker(versionIdMarker).withMaxResults(maxKeys);
    attributed(req, OP_LIST_VERSIONS, prefix);
    VersionListing r = call(() -> s3.listVersions(req));
    List<ObjectVersion> versions = r.getVersionSummaries().stream()
        .map(v -> new ObjectVersion(v.getKey(), v.getVersionId(), v.isLatest(), v.isDeleteMarker(),
            v.isDeleteMarker() ? 0 : v.getSize(), millis(v.getLastModified())))
        .collect(Collectors.toList());
    return r.isTruncated() ? new VersionPage(versions, r.getNextKeyMarker(), r.getNextVersionIdMarker())
        : new VersionPage(versions, null, null);
  }

  @Override
  public String initiateMultipart(String key, String writeId) throws RequestFailure {
    ObjectMetadata md = new ObjectMetadata();
    md.addUserMetadata(WRITE_ID, writeId);
    InitiateMultipartUploadRequest req = attributed(new InitiateMultipartUploadRequest(bucket, key, md),
        OP_MULTIPART_INITIATE, key);
    encryption.applyTo(req, md);
    return call(() -> s3.initiateMultipartUpload(req).getUploadId());
  }

  @Override
  public String uploadPart(String key, String uploadId, int partNumber, Payload part) throws IOException {
    UploadPartRequest req = new UploadPartRequest().withBucketName(bucket).withKey(key).withUploadId(uploadId)
        .withPartNumber(partNumber).withPartSize(part.length());
    attributed(req, OP_MULTIPART_PART, key);
    encryption.applyTo(req);
    InputStream in = null;
    try {
      if (part instanceof Payload.FilePayload) {
        Payload.FilePayload f = (Payload.FilePayload) part;
        req.withFile(f.file().toFile()).withFileOffset(f.offset());
      } else {
        in = part.open();
        req.withInputStream(in);
      }
      return call(() -> s3.uploadPart(req).getPartETag().getETag());
    } finally {
      closeQuietly(in);
    }
  }

  @Override
  public String completeMultipart(String key, String uploadId, List<UploadedPart> parts, WriteCondition condition)
      throws RequestFailure {
    CompleteMultipartUploadRequest req = new CompleteMultipartUploadRequest(bucket, key, uploadId,
        parts.stream().map(p -> new PartETag(p.partNumber(), p.etag())).collect(Collectors.toList()));
    applyCondition(req, condition);
    attributed(req, OP_MULTIPART_COMPLETE, key);
    return call(() -> s3.completeMultipartUpload(req).getETag());
  }

  @Override
  public void abortMultipart(String key, String uploadId) throws RequestFailure {
    AbortMultipartUploadRequest req = attributed(new AbortMultipartUploadRequest(bucket, key, uploadId),
        OP_MULTIPART_ABORT, key);
    call(() -> {
      s3.abortMultipartUpload(req);
      return null;
    });
  }

  @Override
  public UploadsPage listMultipartUploads(String prefix, String keyMarker, String uploadIdMarker)
      throws RequestFailure {
    ListMultipartUploadsRequest req = new ListMultipartUploadsRequest(bucket).withPrefix(prefix)
        .withKeyMarker(keyMarker).withUploadIdMarker(uploadIdMarker);
    attributed(req, OP_MULTIPART_LIST, prefix);
    MultipartUploadListing page = call(() -> s3.listMultipartUploads(req));
    List<MultipartUpload> uploads = page.getMultipartUploads().stream()
        .map(u -> new MultipartUpload(u.getKey(), u.getUploadId(), millis(u.getInitiated())))
        .collect(Collectors.toList());
    return new UploadsPage(uploads, page.isTruncated(), page.getNextKeyMarker(), page.getNextUploadIdMarker());
  }

  private static void closeQuietly(InputStream in) {
    if (in != null) {
      try {
        in.close();
      } catch (IOException ignored) {
        // a payload stream: nothing was lost
      }
    }
  }

  private static ObjectInfo info(String key, ObjectMetadata md) {
    return new ObjectInfo(key, md.getContentLength(), md.getETag(), millis(md.getLastModified()));
  }

  private static long millis(Date d) {
    return d == null ? 0 : d.getTime();
  }
}
