package io.objectcommit.store.impl.v2;

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
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.NonRetryableException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadBucketRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsRequest;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * {@link S3Calls} on the AWS SDK for Java v2 ({@code software.amazon.awssdk:s3}, as Hadoop 3.4's S3A).
 *
 * <p>Compiled against SDK 2.24.6 (what Hadoop 3.4.1 / Spark 4.0 bring), whose PutObject and
 * CompleteMultipartUpload have no typed {@code ifNoneMatch}/{@code ifMatch} (they came with 2.28/2.29): the
 * condition goes as a header through the request's override configuration, which every 2.x sends unchanged; so
 * does each request's attribution header ({@link RequestAttribution}).
 * The SDK's ETags are quoted; ours are not, as on SDK v1. Every SDK exception becomes a {@link RequestFailure}.
 * Thread-safe.
 */
public final class V2Calls implements S3Calls {

  private static final String OCTETS = "application/octet-stream";

  private final String bucket;
  private final S3Client s3;
  private final V2Encryption encryption;
  /** {@code fs.s3a.connection.part.upload.timeout} for PutObject and UploadPart, as S3A 3.4; null: none. */
  private final Duration uploadTimeout;
  private final RequestAttribution attribution;

  /**
   * Requests without an upload timeout of their own (the client's request timeout applies) and without the
   * attribution header.
   */
  public V2Calls(String bucket, S3Client s3, EncryptionSettings encryption) {
    this(bucket, s3, encryption, 0, RequestAttribution.none());
  }

  /** Requests with an upload timeout of their own ({@code uploadTimeoutMs}) and without the attribution header. */
  public V2Calls(String bucket, S3Client s3, EncryptionSettings encryption, long uploadTimeoutMs) {
    this(bucket, s3, encryption, uploadTimeoutMs, RequestAttribution.none());
  }

  /**
   * @param uploadTimeoutMs the time one PutObject or UploadPart may take (S3A 3.4's
   *     {@code fs.s3a.connection.part.upload.timeout}, which replaces the client's shorter request timeout for
   *     requests that carry data); 0: the client's
   * @param attribution builds each request's attribution header
   */
  public V2Calls(String bucket, S3Client s3, EncryptionSettings encryption, long uploadTimeoutMs,
      RequestAttribution attribution) {
    this.bucket = bucket;
    this.s3 = s3;
    this.encryption = new V2Encryption(encryption);
    this.uploadTimeout = uploadTimeoutMs > 0 ? Duration.ofMillis(uploadTimeoutMs) : null;
    this.attribution = attribution;
  }

  @FunctionalInterface
  private interface Send<T> {
    T send();
  }

  private static <T> T call(Send<T> send) throws RequestFailure {
    try {
      return send.send();
    } catch (SdkException e) {
      throw failure(e);
    } catch (UncheckedIOException e) {
      throw RequestFailure.client(e.getMessage(), e.getCause(), RequestFailure.Network.RESET);
    }
  }

  /** The neutral failure of an SDK v2 exception. */
  public static RequestFailure failure(SdkException e) {
    if (e instanceof AwsServiceException) {
      AwsServiceException ase = (AwsServiceException) e;
      AwsErrorDetails d = ase.awsErrorDetails();
      String code = d == null ? null : d.errorCode();
      String message = d == null ? ase.getMessage() : d.errorMessage();
      return RequestFailure.answer(ase.statusCode(), code, message, ase.requestId(), e);
    }
    if (e instanceof AbortedException) {
      return RequestFailure.client(e.getMessage(), e, RequestFailure.Network.INTERRUPTED);
    }
    if (e instanceof V2NoCredentialsException) {
      return RequestFailure.client(e.getMessage(), e, RequestFailure.Network.NO_CREDENTIALS);
    }
    // As SDK v1: client-side failures may be repeated unless the SDK says they may not.
    return RequestFailure.client(e.getMessage(), e,
        e instanceof SdkClientException && !(e instanceof NonRetryableException));
  }

  @Override
  public String sdk() {
    return "v2";
  }

  /** The override configuration of request {@code op} on {@code key}: its attribution header, if any. */
  private AwsRequestOverrideConfiguration.Builder attributed(String op, String key) {
    AwsRequestOverrideConfiguration.Builder b = AwsRequestOverrideConfiguration.builder();
    String header = attribution.header(op, key);
    if (header != null) {
      b.putHeader(RequestAttribution.HEADER, header);
    }
    return b;
  }

  private static AwsRequestOverrideConfiguration.Builder condition(WriteCondition c,
      AwsRequestOverrideConfiguration.Builder b) {
    String header = WriteConditions.headerName(c);
    if (header != null) {
      b.putHeader(header, WriteConditions.headerValue(c));
    }
    return b;
  }

  /** A request that carries data gets the upload timeout (per attempt and per call), when one is set. */
  private AwsRequestOverrideConfiguration upload(AwsRequestOverrideConfiguration.Builder b) {
    if (uploadTimeout != null) {
      b.apiCallTimeout(uploadTimeout).apiCallAttemptTimeout(uploadTimeout);
    }
    return b.build();
  }

  private static RequestBody body(Payload payload) {
    long length = payload.length();
    if (payload instanceof Payload.FilePayload && ((Payload.FilePayload) payload).offset() == 0
        && ((Payload.FilePayload) payload).file().toFile().length() == length) {
      return RequestBody.fromFile(((Payload.FilePayload) payload).file());
    }
    // A new stream for every read: the SDK reads twice when it signs the payload (plain HTTP).
    return RequestBody.fromContentProvider(() -> {
      try {
        return payload.open();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }, length, OCTETS);
  }

  @Override
  public String put(String key, Payload payload, WriteCondition condition, String writeId) throws IOException {
    if (!payload.isRepeatable()) {
      throw new IllegalArgumentException("a single PUT needs a repeatable payload: " + key);
    }
    PutObjectRequest.Builder req = PutObjectRequest.builder().bucket(bucket).key(key)
        .contentLength(payload.length()).metadata(Map.of(WRITE_ID, writeId))
        .overrideConfiguration(upload(condition(condition,
            attributed(condition.isConditional() ? OP_PUT_CONDITIONAL : OP_PUT, key))));
    encryption.applyTo(req);
    return unquote(call(() -> s3.putObject(req.build(), body(payload))).eTag());
  }

  @Override
  public ObjectHead head(String key) throws RequestFailure {
    HeadObjectRequest.Builder req = HeadObjectRequest.builder().bucket(bucket).key(key)
        .overrideConfiguration(attributed(OP_HEAD, key).build());
    encryption.applyTo(req);
    HeadObjectResponse r = call(() -> s3.headObject(req.build()));
    return new ObjectHead(new ObjectInfo(key, r.contentLength() == null ? 0 : r.contentLength(), unquote(r.eTag()),
        millis(r.lastModified())), r.metadata() == null ? null : r.metadata().get(WRITE_ID));
  }

  @Override
  public Optional<StoredBytes> get(String key, String ifNoneMatchEtag) throws RequestFailure {
    GetObjectRequest.Builder req = GetObjectRequest.builder().bucket(bucket).key(key)
        .overrideConfiguration(attributed(OP_GET, key).build());
    if (ifNoneMatchEtag != null) {
      req.ifNoneMatch("\"" + ifNoneMatchEtag + "\"");
    }
    encryption.applyTo(req);
    ResponseBytes<GetObjectResponse> got;
    try {
      got = call(() -> s3.getObjectAsBytes(req.build()));
    } catch (RequestFailure e) {
      if (e.isStatus(304)) {
        return Optional.empty(); // Not Modified: as SDK v1 (which answers null), not a failed request
      }
      throw e;
    }
    GetObjectResponse r = got.response();
    byte[] data = got.asByteArrayUnsafe();
    return Optional.of(new StoredBytes(new ObjectInfo(key, data.length, unquote(r.eTag()), millis(r.lastModified())),
        data));
  }

  @Override
  public ObjectBody getRange(String key, long start, long end, String ifMatchEtag) throws RequestFailure {
    GetObjectRequest.Builder req = GetObjectRequest.builder().bucket(bucket).key(key)
        .overrideConfiguration(attributed(OP_GET, key).build());
    if (ifMatchEtag != null) {
      req.ifMatch("\"" + ifMatchEtag + "\"");
    }
    if (end >= 0) {
      req.range("bytes=" + start + "-" + (end - 1));
    } else if (start > 0) {
      req.range("bytes=" + start + "-");
    }
    encryption.applyTo(req);
    ResponseInputStream<GetObjectResponse> in = call(() -> s3.getObject(req.build()));
    return new ObjectBody() {
      @Override
      public InputStream content() {
        return in;
      }

      @Override
      public void abort() {
        in.abort();
      }

      @Override
      public void close() throws IOException {
        in.close();
      }
    };
  }

  @Override
  public void headBucket() throws RequestFailure {
    call(() -> s3.headBucket(HeadBucketRequest.builder().bucket(bucket)
        .overrideConfiguration(attributed(OP_HEAD_BUCKET, "").build()).build()));
  }

  @Override
  public String copy(String sourceKey, String sourceEtag, String targetKey, String writeId) throws RequestFailure {
    CopyObjectRequest.Builder req = CopyObjectRequest.builder().sourceBucket(bucket).sourceKey(sourceKey)
        .destinationBucket(bucket).destinationKey(targetKey)
        .copySourceIfMatch(sourceEtag == null ? null : "\"" + sourceEtag + "\"")
        .metadataDirective(MetadataDirective.REPLACE).metadata(Map.of(WRITE_ID, writeId))
        .overrideConfiguration(attributed(OP_COPY, targetKey).build());
    encryption.applyTo(req);
    return unquote(call(() -> s3.copyObject(req.build())).copyObjectResult().eTag());
  }

  @Override
  public void delete(String key) throws RequestFailure {
    call(() -> s3.deleteObject(DeleteObjectRequest.builder().bucket(bucket).key(key)
        .overrideConfiguration(attributed(OP_DELETE, key).build()).build()));
  }

  @Override
  public void deleteIfMatch(String key, String etag) throws RequestFailure {
    call(() -> s3.deleteObject(DeleteObjectRequest.builder().bucket(bucket).key(key)
        .overrideConfiguration(attributed(OP_DELETE, key).putHeader("If-Match", "\"" + etag + "\"").build())
        .build()));
  }

  @Override
  public void deleteBatch(List<String> keys) throws RequestFailure {
    DeleteObjectsRequest req = DeleteObjectsRequest.builder().bucket(bucket).delete(Delete.builder().quiet(true)
        .objects(keys.stream().map(k -> ObjectIdentifier.builder().key(k).build()).collect(Collectors.toList()))
        .build()).overrideConfiguration(attributed(OP_DELETE_BULK, keys.isEmpty() ? "" : keys.get(0)).build())
        .build();
    DeleteObjectsResponse r = call(() -> s3.deleteObjects(req));
    if (r.hasErrors() && !r.errors().isEmpty()) {
      // SDK v1 throws for this answer (MultiObjectDeleteException): the same failure on both bindings.
      throw RequestFailure.refusedKeys(r.errors().stream().map(d -> d.key() + " (" + d.code() + ")")
          .collect(Collectors.toList()), r.responseMetadata() == null ? null : r.responseMetadata().requestId(),
          null);
    }
  }

  @Override
  public ListPage list(String prefix, String delimiter, String startAfter, String continuationToken, int maxKeys)
      throws RequestFailure {
    ListObjectsV2Request.Builder req = ListObjectsV2Request.builder().bucket(bucket).prefix(prefix).maxKeys(maxKeys)
        .overrideConfiguration(attributed(OP_LIST, prefix).build());
    if (delimiter != null && !delimiter.isEmpty()) {
      req.delimiter(delimiter);
    }
    if (continuationToken != null) {
      req.continuationToken(continuationToken);
    } else if (startAfter != null) {
      req.startAfter(startAfter);
    }
    ListObjectsV2Response r = call(() -> s3.listObjectsV2(req.build()));
    List<ObjectInfo> objects = r.contents().stream()
        .map(o -> new ObjectInfo(o.key(), o.size() == null ? 0 : o.size(), unquote(o.eTag()),
            millis(o.lastModified())))
        .collect(Collectors.toList());
    List<String> prefixes = r.commonPrefixes().stream().map(CommonPrefix::prefix).collect(Collectors.toList());
    return new ListPage(objects, prefixes, Boolean.TRUE.equals(r.isTruncated()) ? r.nextContinuationToken() : null);
  }

  @Override
  public VersionPage listVersions(String prefix, String keyMarker, String versionIdMarker, int maxKeys)
      throws RequestFailure {
    ListObjectVersionsRequest req = ListObjectVersionsRequest.builder().bucket(bucket).prefix(prefix)
        .keyMarker(keyMarker).versionIdMarker(versionIdMarker).maxKeys(maxKeys)
        .overrideConfiguration(attributed(OP_LIST_VERSIONS, prefix).build()).build();
    ListObjectVersionsResponse r = call(() -> s3.listObjectVersions(req));
    List<ObjectVersion> all = new ArrayList<>();
    r.versions().forEach(v -> all.add(new ObjectVersion(v.key(), v.versionId(), Boolean.TRUE.equals(v.isLatest()),
        false, v.size() == null ? 0 : v.size(), millis(v.lastModified()))));
    r.deleteMarkers().forEach(m -> all.add(new ObjectVersion(m.key(), m.versionId(),
        Boolean.TRUE.equals(m.isLatest()), true, 0, millis(m.lastModified()))));
    return Boolean.TRUE.equals(r.isTruncated())
        ? new VersionPage(all, r.nextKeyMarker(), r.nextVersionIdMarker())
        : new VersionPage(all, null, null);
  }

  @Override
  public String initiateMultipart(String key, String writeId) throws RequestFailure {
    CreateMultipartUploadRequest.Builder req = CreateMultipartUploadRequest.builder().bucket(bucket).key(key)
        .metadata(Map.of(WRITE_ID, writeId)).overrideConfiguration(attributed(OP_MULTIPART_INITIATE, key).build());
    encryption.applyTo(req);
    return call(() -> s3.createMultipartUpload(req.build())).uploadId();
  }

  @Override
  public String uploadPart(String key, String uploadId, int partNumber, Payload part) throws IOException {
    UploadPartRequest.Builder req = UploadPartRequest.builder().bucket(bucket).key(key).uploadId(uploadId)
        .partNumber(partNumber).contentLength(part.length())
        .overrideConfiguration(upload(attributed(OP_MULTIPART_PART, key)));
    encryption.applyTo(req);
    return unquote(call(() -> s3.uploadPart(req.build(), body(part))).eTag());
  }

  @Override
  public String completeMultipart(String key, String uploadId, List<UploadedPart> parts, WriteCondition condition)
      throws RequestFailure {
    CompleteMultipartUploadRequest req = CompleteMultipartUploadRequest.builder().bucket(bucket).key(key)
        .uploadId(uploadId).multipartUpload(CompletedMultipartUpload.builder().parts(parts.stream()
            .map(p -> CompletedPart.builder().partNumber(p.partNumber()).eTag(p.etag()).build())
            .collect(Collectors.toList())).build())
        .overrideConfiguration(condition(condition, attributed(OP_MULTIPART_COMPLETE, key)).build()).build();
    return unquote(call(() -> s3.completeMultipartUpload(req)).eTag());
  }

  @Override
  public void abortMultipart(String key, String uploadId) throws RequestFailure {
    call(() -> s3.abortMultipartUpload(AbortMultipartUploadRequest.builder().bucket(bucket).key(key)
        .uploadId(uploadId).overrideConfiguration(attributed(OP_MULTIPART_ABORT, key).build()).build()));
  }

  @Override
  public UploadsPage listMultipartUploads(String prefix, String keyMarker, String uploadIdMarker)
      throws RequestFailure {
    ListMultipartUploadsRequest req = ListMultipartUploadsRequest.builder().bucket(bucket).prefix(prefix)
        .keyMarker(keyMarker).uploadIdMarker(uploadIdMarker)
        .overrideConfiguration(attributed(OP_MULTIPART_LIST, prefix).build()).build();
    ListMultipartUploadsResponse page = call(() -> s3.listMultipartUploads(req));
    List<MultipartUpload> uploads = page.uploads().stream()
        .map(u -> new MultipartUpload(u.key(), u.uploadId(), millis(u.initiated())))
        .collect(Collectors.toList());
    return new UploadsPage(uploads, Boolean.TRUE.equals(page.isTruncated()), page.nextKeyMarker(),
        page.nextUploadIdMarker());
  }

  /** The ETag without the quotes S3 puts around it (SDK v1 strips them; v2 does not). */
  static String unquote(String etag) {
    if (etag != null && etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"")) {
      return etag.substring(1, etag.length() - 1);
    }
    return etag;
  }

  private static long millis(Instant t) {
    return t == null ? 0 : t.toEpochMilli();
  }
}
