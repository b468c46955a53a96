package io.objectcommit.staging;

import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectStore;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Incomplete multipart uploads under a prefix: the ones a job that died, or a client that vanished, left behind.
 * They are invisible but billed until aborted (or until a bucket lifecycle rule such as {@code
 * AbortIncompleteMultipartUpload} removes them). Uploads younger than the given age are left alone, so that jobs
 * still running are not harmed: choose an age longer than any job.
 */
public final class PendingUploads {

  private PendingUploads() {
  }

  /**
   * The incomplete uploads under {@code prefix} initiated more than {@code olderThan} before {@code nowMs} (an
   * upload whose start time the store does not report is included only when {@code olderThan} is zero).
   */
  public static List<MultipartUpload> list(ObjectStore store, String prefix, Duration olderThan, long nowMs)
      throws IOException {
    long cutoff = nowMs - olderThan.toMillis();
    List<MultipartUpload> old = new ArrayList<>();
    for (MultipartUpload u : store.listMultipartUploads(prefix)) {
      if (olderThan.isZero() || (u.initiated() > 0 && u.initiated() <= cutoff)) {
        old.add(u);
      }
    }
    return old;
  }

  /**
   * Aborts the uploads {@link #list} returns, one request each.
   *
   * @return the uploads aborted
   */
  public static List<MultipartUpload> abort(ObjectStore store, String prefix, Duration olderThan, long nowMs)
      throws IOException {
    List<MultipartUpload> old = list(store, prefix, olderThan, nowMs);
    for (MultipartUpload u : old) {
      store.abortMultipartUpload(u);
    }
    return old;
  }
}
