package io.objectcommit.store.testing;

import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.statistics.StoreStatistics;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Collection;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.PathIOException;

/**
 * Sends the requests of one {@link InMemoryObjectStore}: applies the bucket's fault rules, counts each request
 * on the bucket under its {@link S3Operation} and the HTTP status S3 would answer, and records it in the store's
 * statistics under the real store's operation name.
 */
final class RequestSender {

  /** What a request does to the bucket; may set {@code status[0]} to the success status (304, 206, 404...). */
  @FunctionalInterface
  interface Call<T> {
    T run(int[] status) throws IOException;
  }

  /** HTTP 416: a range starting at or after the end of the object. */
  static final class RangeNotSatisfiable extends PathIOException {
    private static final long serialVersionUID = 1L;

    RangeNotSatisfiable(String path, String detail) {
      super(path, detail);
    }
  }

  private final InMemoryBucket bucket;
  private final StoreStatistics statistics;

  RequestSender(InMemoryBucket bucket, StoreStatistics statistics) {
    this.bucket = bucket;
    this.statistics = statistics;
  }

  /**
   * @param keys the request's key (for a bulk delete: its keys; for a listing: the prefix), matched by fault rules
   * @param conditional whether the request carries {@code If-None-Match} / {@code If-Match}
   */
  <T> T send(S3Operation op, String stat, Collection<String> keys, boolean conditional, Call<T> call)
      throws IOException {
    String path = bucket.pathOf(keys.isEmpty() ? "" : keys.iterator().next());
    RequestHook hook = bucket.hook(op, keys);
    if (hook != null && !hook.isAfterApplying()) {
      hook.run();
    }
    try {
      return sendCounted(op, stat, keys, conditional, call, path);
    } finally {
      if (hook != null && hook.isAfterApplying()) {
        hook.run();
      }
    }
  }

  private <T> T sendCounted(S3Operation op, String stat, Collection<String> keys, boolean conditional, Call<T> call,
      String path) throws IOException {
    FaultRule fault = bucket.fault(op, keys);
    int[] status = {op == S3Operation.DELETE || op == S3Operation.MULTIPART_ABORT ? 204 : 200};
    boolean injected = false;
    bucket.enterRequest();
    try {
      if (fault != null && !fault.isAfterApplying()) {
        injected = true;
        throw fault.exception(op, path);
      }
      T result = call.run(status);
      if (fault != null) {
        injected = true;
        throw fault.exception(op, path);
      }
      bucket.record(op, status[0], conditional);
      statistics.recordRequest(stat, 0, status[0] >= 400); // as the real store: a 404 HEAD is a failed request
      return result;
    } catch (IOException | RuntimeException e) {
      bucket.record(op, injected ? fault.status() : statusOf(e), conditional);
      statistics.recordRequest(stat, 0, true);
      throw e;
    } finally {
      bucket.exitRequest();
    }
  }

  private static int statusOf(Exception e) {
    if (e instanceof FileNotFoundException) {
      return 404;
    }
    if (e instanceof FileAlreadyExistsException || e instanceof ObjectChangedException) {
      return 412;
    }
    return e instanceof RangeNotSatisfiable ? 416 : 400;
  }
}
