package io.objectcommit.store.impl;

import static io.objectcommit.store.statistics.StoreStatisticNames.OP_DELETE;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_HEAD;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_HEAD_BUCKET;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_PUT;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_PUT_CONDITIONAL;

import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.statistics.StoreStatistics;
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

  /** One attempt of a request with the client. */
  @FunctionalInterface
  interface Request<T> {
    T send(S3Calls calls, int attempt) throws IOException;
  }

  private final String bucket;
  private final S3Calls client;
  private final Invoker invoker;
  private volatile boolean bucketVerified;

  S3Requests(String bucket, S3Calls client, Invoker invoker) {
    this.bucket = bucket;
    this.client = client;
    this.invoker = invoker;
  }

  String bucket() {
    return bucket;
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
      String etag = s3.put(key, payload, condition, writeId);
      statistics().recordBytes(op, length);
      return new ObjectInfo(key, length, etag, 0);
    }, onFailure);
  }

  /** HEAD with user metadata; empty when there is no such object (a missing bucket is an error). */
  Optional<S3Calls.ObjectHead> head(String key) throws IOException {
    Optional<S3Calls.ObjectHead> md = send(OP_HEAD, pathOf(key), (s3, attempt) -> Optional.of(s3.head(key)),
        (e, attempt) -> e.isStatus(404) ? Optional.empty() : null);
    if (md.isEmpty() && !bucketVerified) {
      verifyBucket();
    }
    return md;
  }

  /** A HEAD answers 404 for a missing object and a missing bucket alike: tell them apart once per store. */
  private void verifyBucket() throws IOException {
    send(OP_HEAD_BUCKET, "s3://" + bucket + "/", (s3, attempt) -> {
      s3.headBucket();
      return Boolean.TRUE;
    }, (e, attempt) -> {
      if (e.isStatus(404)) {
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
      s3.delete(key);
      return Boolean.TRUE;
    });
  }

  /**
   * DELETE of one object while it has ETag {@code etag}: a 412 is {@link ObjectChangedException} (nothing deleted),
   * a 404 of the key counts as deleted (the object is gone, which is what the caller wanted; also what a retry after
   * an earlier attempt that deleted it meets).
   */
  void deleteIfMatch(String key, String etag) throws IOException {
    send(OP_DELETE, pathOf(key), (s3, attempt) -> {
      s3.deleteIfMatch(key, etag);
      return Boolean.TRUE;
    }, (e, attempt) -> {
      if (e.isStatus(412)) {
        ObjectChangedException changed = new ObjectChangedException(pathOf(key), "delete (If-Match)", etag,
            "nothing was deleted");
        changed.initCause(e);
        throw changed;
      }
      if (e.isStatus(404) && !"NoSuchBucket".equals(e.errorCode())) {
        return Boolean.TRUE;
      }
      return null;
    });
  }

  /** Which SDK the requests go through ({@code v1}, {@code v2}), for messages and logs. */
  String sdk() {
    return client.sdk();
  }
}
