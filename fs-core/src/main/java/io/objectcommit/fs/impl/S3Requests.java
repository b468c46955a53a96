package io.objectcommit.fs.impl;

import static io.objectcommit.fs.statistics.StoreStatisticNames.OP_DELETE;
import static io.objectcommit.fs.statistics.StoreStatisticNames.OP_HEAD;
import static io.objectcommit.fs.statistics.StoreStatisticNames.OP_HEAD_BUCKET;
import static io.objectcommit.fs.statistics.StoreStatisticNames.OP_PUT;
import static io.objectcommit.fs.statistics.StoreStatisticNames.OP_PUT_CONDITIONAL;

import com.amazonaws.AmazonServiceException;
import com.amazonaws.services.s3.AmazonS3;
import com.amazonaws.services.s3.model.GetObjectMetadataRequest;
import com.amazonaws.services.s3.model.HeadBucketRequest;
import com.amazonaws.services.s3.model.ObjectMetadata;
import com.amazonaws.services.s3.model.PutObjectRequest;
import com.amazonaws.services.s3.model.PutObjectResult;
import io.objectcommit.fs.ObjectInfo;
import io.objectcommit.fs.Payload;
import io.objectcommit.fs.WriteCondition;
import io.objectcommit.fs.statistics.StoreStatistics;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Optional;

/**
 * The lowest layer of the S3 store: sends one S3 request of one bucket through the SDK client, by way of the
 * {@link Invoker} (timing, counting, retries, error translation). Knows requests, not protocols: the layers above
 * ({@link S3ObjectStore}, {@link ConditionalWrites}, {@link MultipartWriter}) decide what to send and call only
 * down to here. Thread-safe.
 */
final class S3Requests {

  /** User metadata carrying the unique id of each write, to recognise our own earlier success on a retry. */
  static final String WRITE_ID = "objectcommit-write-id";

  /** One attempt of a request with the client. */
  @FunctionalInterface
  interface Request<T> {
    T send(AmazonS3 client, int attempt) throws IOException;
  }

  private final String bucket;
  private final AmazonS3 client;
  private final EncryptionSettings encryption;
  private final Invoker invoker;
  private volatile boolean bucketVerified;

  S3Requests(String bucket, AmazonS3 client, EncryptionSettings encryption, Invoker invoker) {
    this.bucket = bucket;
    this.client = client;
    this.encryption = encryption;
    this.invoker = invoker;
  }

  String bucket() {
    return bucket;
  }

  EncryptionSettings encryption() {
    return encryption;
  }

  StoreStatistics statistics() {
    return invoker.statistics();
  }

  /** The bucket and endpoint, for messages (never credentials). */
  String where() {
    return invoker.errors().where();
  }

  String pathOf(String key) {
    return "s3://" + bucket + "/" + key;
  }

  /** Sends one request of operation {@code op} on {@code path}, retried and translated by the invoker. */
  <T> T send(String op, String path, Request<T> request) throws IOException {
    return invoker.invoke(op, path, attempt -> request.send(client, attempt));
  }

  /** {@link #send} with a handler deciding what a failure that is not retried means. */
  <T> T send(String op, String path, Request<T> request, Invoker.FailureHandler<T> handler) throws IOException {
    return invoker.invoke(op, path, attempt -> request.send(client, attempt), handler);
  }

  /**
   * One PUT of a repeatable payload (retried as a whole) with the condition's header and the write id in its
   * metadata; {@code onFailure} decides what a refusal means.
   */
  ObjectInfo put(String key, Payload payload, WriteCondition condition, String writeId,
      Invoker.FailureHandler<ObjectInfo> onFailure) throws IOException {
    String op = condition.isConditional() ? OP_PUT_CONDITIONAL : OP_PUT;
    long length = payload.length();
    return send(op, pathOf(key), (s3, attempt) -> {
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
      WriteConditions.applyTo(req, condition);
      encryption.applyTo(req);
      PutObjectResult r = s3.putObject(req);
      statistics().recordBytes(op, length);
      return new ObjectInfo(key, length, r.getETag(), 0);
    }, onFailure);
  }

  /** HEAD with user metadata; empty when there is no such object (a missing bucket is an error). */
  Optional<ObjectMetadata> head(String key) throws IOException {
    Optional<ObjectMetadata> md = send(OP_HEAD, pathOf(key), (s3, attempt) -> {
      GetObjectMetadataRequest req = new GetObjectMetadataRequest(bucket, key);
      encryption.applyTo(req);
      return Optional.of(s3.getObjectMetadata(req));
    }, (e, attempt) -> isStatus(e, 404) ? Optional.empty() : null);
    if (md.isEmpty() && !bucketVerified) {
      verifyBucket();
    }
    return md;
  }

  /** A HEAD answers 404 for a missing object and a missing bucket alike: tell them apart once per store. */
  private void verifyBucket() throws IOException {
    send(OP_HEAD_BUCKET, "s3://" + bucket + "/", (s3, attempt) -> {
      s3.headBucket(new HeadBucketRequest(bucket));
      return Boolean.TRUE;
    }, (e, attempt) -> {
      if (isStatus(e, 404)) {
        FileNotFoundException fnf = new FileNotFoundException("s3://" + bucket + "/: no such bucket: " + where());
        fnf.initCause(e);
        throw fnf;
      }
      return null;
    });
    bucketVerified = true;
  }

  /** DELETE of one object (a missing one counts as deleted). */
  void delete(String key) throws IOException {
    send(OP_DELETE, pathOf(key), (s3, attempt) -> {
      s3.deleteObject(bucket, key);
      return Boolean.TRUE;
    });
  }

  static boolean isStatus(Exception e, int status) {
    return e instanceof AmazonServiceException && ((AmazonServiceException) e).getStatusCode() == status;
  }

  static ObjectInfo info(String key, ObjectMetadata md) {
    return new ObjectInfo(key, md.getContentLength(), md.getETag(),
        md.getLastModified() == null ? 0 : md.getLastModified().getTime());
  }
}
