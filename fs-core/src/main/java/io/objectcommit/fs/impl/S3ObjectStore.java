package io.objectcommit.fs.impl;

import static io.objectcommit.fs.statistics.StoreStatisticNames.OP_DELETE;
import static io.objectcommit.fs.statistics.StoreStatisticNames.OP_DELETE_BULK;
import static io.objectcommit.fs.statistics.StoreStatisticNames.OP_GET;
import static io.objectcommit.fs.statistics.StoreStatisticNames.OP_HEAD;
import static io.objectcommit.fs.statistics.StoreStatisticNames.OP_HEAD_BUCKET;
import static io.objectcommit.fs.statistics.StoreStatisticNames.OP_LIST;
import static io.objectcommit.fs.statistics.StoreStatisticNames.OP_PUT;
import static io.objectcommit.fs.statistics.StoreStatisticNames.OP_PUT_CONDITIONAL;

import com.amazonaws.AmazonServiceException;
import com.amazonaws.SdkClientException;
import com.amazonaws.services.s3.AmazonS3;
import com.amazonaws.services.s3.model.DeleteObjectsRequest;
import com.amazonaws.services.s3.model.GetObjectMetadataRequest;
import com.amazonaws.services.s3.model.GetObjectRequest;
import com.amazonaws.services.s3.model.ListObjectsV2Request;
import com.amazonaws.services.s3.model.ListObjectsV2Result;
import com.amazonaws.services.s3.model.MultiObjectDeleteException;
import com.amazonaws.services.s3.model.ObjectMetadata;
import com.amazonaws.services.s3.model.PutObjectRequest;
import com.amazonaws.services.s3.model.PutObjectResult;
import com.amazonaws.services.s3.model.S3Object;
import io.objectcommit.fs.ListPage;
import io.objectcommit.fs.MultipartUpload;
import io.objectcommit.fs.ObjectInfo;
import io.objectcommit.fs.ObjectStore;
import io.objectcommit.fs.Payload;
import io.objectcommit.fs.StoreCapabilities;
import io.objectcommit.fs.StoreGuarantee;
import java.util.EnumSet;
import java.util.Set;
import io.objectcommit.fs.StoredBytes;
import io.objectcommit.fs.UploadedPart;
import io.objectcommit.fs.WriteCondition;
import io.objectcommit.fs.statistics.StoreStatistics;
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
 * {@link ObjectStore} on one S3 bucket through the AWS SDK v1. Retries, statistics and error translation are
 * done by the {@link Invoker}; conditional writes by {@link ConditionalWrites}; large and multipart uploads by
 * {@link MultipartWriter}. Thread-safe.
 */
public final class S3ObjectStore implements ObjectStore {

  private static final Logger LOG = LoggerFactory.getLogger(S3ObjectStore.class);

  /** User metadata carrying the unique id of each write, to recognise our own earlier success on a retry. */
  static final String WRITE_ID = "objectcommit-write-id";

  private final String bucket;
  private final AmazonS3 client;
  private final StoreOptions options;
  private final EncryptionSettings encryption;
  private final StoreStatistics statistics = new StoreStatistics();
  private final Invoker invoker;
  private final ConditionalWrites conditional;
  private final MultipartWriter multipart;
  private final Closeable onClose;
  private final String where;
  private final Invoker.Sleeper sleeper;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile boolean bucketVerified;

  /**
   * @param where   the bucket and endpoint for messages, never credentials
   * @param onClose released on {@link #close()} (the client's cache lease)
   */
  public S3ObjectStore(String bucket, AmazonS3 client, StoreOptions options, EncryptionSettings encryption,
      String where, Closeable onClose, Invoker.Sleeper sleeper) {
    this.bucket = bucket;
    this.client = client;
    this.options = options;
    this.encryption = encryption;
    this.onClose = onClose;
    this.where = where;
    this.sleeper = sleeper;
    this.invoker = new Invoker(options.retryPolicy(), statistics, new ErrorTranslation(where), sleeper);
    this.conditional = new ConditionalWrites(this, options, where);
    this.multipart = new MultipartWriter(this, client, invoker, encryption, options);
  }

  @Override
  public String bucket() {
    return bucket;
  }

  AmazonS3 client() {
    return client;
  }

  Invoker invoker() {
    return invoker;
  }

  // ------------------------------------------------------------------------------------------------ writes

  @Override
  public ObjectInfo put(String key, Payload payload, WriteCondition condition) throws IOException {
    checkOpen();
    WriteCondition effective = conditional.prepare(key, condition);
    Payload p = payload;
    if (p instanceof Payload.StreamPayload) {
      // Buffer up to the threshold: decides single PUT vs multipart, and makes a single PUT repeatable.
      BufferedStart start = BufferedStart.read(p.open(), options.multipartThreshold());
      if (start.complete()) {
        return putSingle(key, Payload.of(start.buffer(), 0, start.length()), effective);
      }
      requireConditionalCompletion(effective);
      return multipart.upload(key, start, p.open(), effective);
    }
    if (p.length() < options.multipartThreshold()) {
      return putSingle(key, p, effective);
    }
    requireConditionalCompletion(effective);
    return multipart.upload(key, p, effective);
  }

  /** One PUT request (retried as a whole); the payload is repeatable. */
  ObjectInfo putSingle(String key, Payload payload, WriteCondition condition) throws IOException {
    String writeId = UUID.randomUUID().toString();
    String op = condition.isConditional() ? OP_PUT_CONDITIONAL : OP_PUT;
    long length = payload.length();
    return invoker.invoke(op, pathOf(key), attempt -> {
      ObjectMetadata md = new ObjectMetadata();
      md.setContentLength(length);
      md.addUserMetadata(WRITE_ID, writeId);
      PutObjectRequest req;
      if (payload instanceof Payload.FilePayload && ((Payload.FilePayload) payload).offset() == 0
          && ((Payload.FilePayload) payload).file().toFile().length() == length) {
        // A whole file (a range of one goes through its bounded stream below).
        req = new PutObjectRequest(bucket, key, ((Payload.FilePayload) payload).file().toFile()).withMetadata(md);
      } else {
        req = new PutObjectRequest(bucket, key, payload.open(), md);
        req.getRequestClientOptions().setReadLimit((int) Math.min(Integer.MAX_VALUE, length + 1));
      }
      ConditionalWrites.applyTo(req, condition);
      encryption.applyTo(req);
      PutObjectResult r = client.putObject(req);
      statistics.recordBytes(op, length);
      return new ObjectInfo(key, length, r.getETag(), 0);
    }, (e, attempt) -> conditional.onRefusedPut(e, attempt, key, condition, writeId));
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
    return invoker.invoke(OP_GET, pathOf(key), attempt -> {
      GetObjectRequest req = new GetObjectRequest(bucket, key);
      if (etag != null) {
        req.setNonmatchingETagConstraints(List.of("\"" + etag + "\""));
      }
      encryption.applyTo(req);
      S3Object got = client.getObject(req);
      if (got == null) {
        return Optional.<StoredBytes>empty(); // 304 Not Modified: the SDK answers null
      }
      try (S3Object o = got) {
        byte[] data;
        try {
          data = o.getObjectContent().readAllBytes();
        } catch (IOException e) {
          throw new SdkClientException("reading " + pathOf(key) + " failed", e); // classified and retried
        }
        statistics.recordBytes(OP_GET, data.length);
        ObjectMetadata md = o.getObjectMetadata();
        return Optional.of(new StoredBytes(info(key, md), data));
      }
    });
  }

  @Override
  public InputStream open(String key, long start, long end) throws IOException {
    checkOpen();
    if (start < 0 || (end >= 0 && end < start)) {
      throw new IllegalArgumentException("bad range [" + start + ", " + end + ") of " + pathOf(key));
    }
    S3Object o = invoker.invoke(OP_GET, pathOf(key), attempt -> {
      GetObjectRequest req = new GetObjectRequest(bucket, key);
      if (end >= 0) {
        if (end == start) {
          return null; // an empty range: no request
        }
        req.setRange(start, end - 1);
      } else if (start > 0) {
        req.setRange(start);
      }
      encryption.applyTo(req);
      return client.getObject(req);
    });
    if (o == null) {
      return InputStream.nullInputStream();
    }
    return new ObjectInputStream(o, bytes -> statistics.recordBytes(OP_GET, bytes));
  }

  @Override
  public Optional<ObjectInfo> head(String key) throws IOException {
    checkOpen();
    Optional<ObjectMetadata> md = headMetadata(key);
    return md.map(m -> info(key, m));
  }

  /** HEAD with user metadata; empty when there is no such object (a missing bucket is an error). */
  Optional<ObjectMetadata> headMetadata(String key) throws IOException {
    Optional<ObjectMetadata> md = invoker.invoke(OP_HEAD, pathOf(key), attempt -> {
      GetObjectMetadataRequest req = new GetObjectMetadataRequest(bucket, key);
      encryption.applyTo(req);
      return Optional.of(client.getObjectMetadata(req));
    }, (e, attempt) -> isStatus(e, 404) ? Optional.empty() : null);
    if (md.isEmpty() && !bucketVerified) {
      verifyBucket();
    }
    return md;
  }

  /** A HEAD answers 404 for a missing object and a missing bucket alike: tell them apart once per store. */
  private void verifyBucket() throws IOException {
    invoker.invoke(OP_HEAD_BUCKET, "s3://" + bucket + "/", attempt -> {
      client.headBucket(new com.amazonaws.services.s3.model.HeadBucketRequest(bucket));
      return Boolean.TRUE;
    }, (e, attempt) -> {
      if (isStatus(e, 404)) {
        throw new FileNotFoundException("s3://" + bucket + "/: no such bucket: " + invoker.errors().where());
      }
      return null;
    });
    bucketVerified = true;
  }

  @Override
  public ListPage list(String prefix, String delimiter, String continuationToken, int maxKeys) throws IOException {
    checkOpen();
    return invoker.invoke(OP_LIST, pathOf(prefix), attempt -> {
      ListObjectsV2Request req = new ListObjectsV2Request().withBucketName(bucket).withPrefix(prefix)
          .withMaxKeys(Math.max(1, Math.min(maxKeys, 1000)));
      if (delimiter != null && !delimiter.isEmpty()) {
        req.setDelimiter(delimiter);
      }
      if (continuationToken != null) {
        req.setContinuationToken(continuationToken);
      }
      ListObjectsV2Result r = client.listObjectsV2(req);
      List<ObjectInfo> objects = r.getObjectSummaries().stream()
          .map(s -> new ObjectInfo(s.getKey(), s.getSize(), s.getETag(),
              s.getLastModified() == null ? 0 : s.getLastModified().getTime()))
          .collect(Collectors.toList());
      return new ListPage(objects, r.getCommonPrefixes(), r.isTruncated() ? r.getNextContinuationToken() : null);
    });
  }

  // ------------------------------------------------------------------------------------------------ delete

  @Override
  public void delete(String key) throws IOException {
    checkOpen();
    invoker.invoke(OP_DELETE, pathOf(key), attempt -> {
      client.deleteObject(bucket, key);
      return Boolean.TRUE;
    });
  }

  @Override
  public int deleteBatch(Collection<String> keys) throws IOException {
    checkOpen();
    List<String> all = new ArrayList<>(keys);
    for (int from = 0; from < all.size(); from += 1000) {
      List<String> batch = all.subList(from, Math.min(all.size(), from + 1000));
      String first = pathOf(batch.get(0));
      invoker.invoke(OP_DELETE_BULK, first, attempt -> {
        DeleteObjectsRequest req = new DeleteObjectsRequest(bucket).withQuiet(true)
            .withKeys(batch.stream().map(DeleteObjectsRequest.KeyVersion::new).collect(Collectors.toList()));
        client.deleteObjects(req);
        return Boolean.TRUE;
      }, (e, attempt) -> {
        if (e instanceof MultiObjectDeleteException) {
          List<MultiObjectDeleteException.DeleteError> errors = ((MultiObjectDeleteException) e).getErrors();
          String refused = errors.stream().limit(10).map(d -> d.getKey() + " (" + d.getCode() + ")")
              .collect(Collectors.joining(", "));
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
    WriteCondition effective = conditional.prepare(upload.key(), condition);
    requireConditionalCompletion(effective);
    return multipart.complete(upload, parts, effective);
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

  @Override
  public void requireGuarantees(Set<StoreGuarantee> needed, String component) throws IOException {
    checkOpen();
    StoreGuarantees.require(options, where, component, needed, () -> new S3ObjectStore(bucket, client,
        options.withConditionalWrites(StoreOptions.ConditionalWritesMode.ASSUME), encryption, where, () -> { },
        sleeper));
  }

  /** A conditional multipart completion is sent only where the store honours that condition on completion. */
  private void requireConditionalCompletion(WriteCondition c) throws IOException {
    if (c.isConditional()) {
      requireGuarantees(EnumSet.of(c.kind() == WriteCondition.Kind.IF_ABSENT ? StoreGuarantee.IF_NONE_MATCH_COMPLETE
          : StoreGuarantee.IF_MATCH_COMPLETE), "a conditional multipart write");
    }
  }

  @Override
  public StoreCapabilities capabilities() throws IOException {
    checkOpen();
    return conditional.capabilities();
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

  static boolean isStatus(Exception e, int status) {
    return e instanceof AmazonServiceException && ((AmazonServiceException) e).getStatusCode() == status;
  }

  static ObjectInfo info(String key, ObjectMetadata md) {
    return new ObjectInfo(key, md.getContentLength(), md.getETag(),
        md.getLastModified() == null ? 0 : md.getLastModified().getTime());
  }

  @Override
  public String toString() {
    return "S3ObjectStore{" + invoker.errors().where() + "}";
  }
}
