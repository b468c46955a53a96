package io.objectcommit.store.impl;

import static io.objectcommit.store.StoreConstants.MULTIPART_MIN_SIZE;
import static io.objectcommit.store.StoreConstants.MULTIPART_SIZE;
import static io.objectcommit.store.StoreConstants.MULTIPART_SIZE_DEFAULT;
import static io.objectcommit.store.StoreConstants.MULTIPART_THRESHOLD;
import static io.objectcommit.store.StoreConstants.MULTIPART_THRESHOLD_DEFAULT;
import static io.objectcommit.store.StoreConstants.RETRY_CONNECT_LIMIT;
import static io.objectcommit.store.StoreConstants.RETRY_CONNECT_LIMIT_DEFAULT;
import static io.objectcommit.store.StoreConstants.RETRY_INTERVAL;
import static io.objectcommit.store.StoreConstants.RETRY_INTERVAL_DEFAULT_MS;
import static io.objectcommit.store.StoreConstants.RETRY_LIMIT;
import static io.objectcommit.store.StoreConstants.RETRY_LIMIT_DEFAULT;
import static io.objectcommit.store.StoreConstants.RETRY_MAX_INTERVAL;
import static io.objectcommit.store.StoreConstants.RETRY_MAX_INTERVAL_DEFAULT_MS;
import static io.objectcommit.store.StoreConstants.RETRY_THROTTLE_LIMIT;
import static io.objectcommit.store.StoreConstants.RETRY_THROTTLE_LIMIT_DEFAULT;

import io.objectcommit.store.config.ConfigReader;

/**
 * The request path's own settings (retries, multipart), parsed once as part of the store's configuration;
 * immutable. Whether conditions are checked, trusted or emulated is not among them: the request path sends
 * conditions as given, and the guarantee policy above it decides ({@code guarantee.GuaranteeSettings}).
 */
public final class StoreOptions {

  private final RetryPolicy retryPolicy;
  private final long multipartSize;
  private final long multipartThreshold;

  public StoreOptions(RetryPolicy retryPolicy, long multipartSize, long multipartThreshold) {
    this.retryPolicy = retryPolicy;
    this.multipartSize = multipartSize;
    this.multipartThreshold = multipartThreshold;
  }

  /** Reads the options for one bucket; a bad value fails naming its key. */
  public static StoreOptions from(ConfigReader r) {
    RetryPolicy retry = new RetryPolicy(
        r.getInt(RETRY_LIMIT, RETRY_LIMIT_DEFAULT, 0, 100),
        r.getInt(RETRY_THROTTLE_LIMIT, RETRY_THROTTLE_LIMIT_DEFAULT, 0, 100),
        r.getInt(RETRY_CONNECT_LIMIT, RETRY_CONNECT_LIMIT_DEFAULT, 0, 100),
        r.getDurationMs(RETRY_INTERVAL, RETRY_INTERVAL_DEFAULT_MS, 1),
        r.getDurationMs(RETRY_MAX_INTERVAL, RETRY_MAX_INTERVAL_DEFAULT_MS, 1));
    long size = r.getBytes(MULTIPART_SIZE, MULTIPART_SIZE_DEFAULT, MULTIPART_MIN_SIZE);
    if (size > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("Invalid value of " + r.effectiveKey(MULTIPART_SIZE)
          + ": parts are buffered in memory and must be smaller than 2 GiB");
    }
    long threshold = r.getBytes(MULTIPART_THRESHOLD, MULTIPART_THRESHOLD_DEFAULT, MULTIPART_MIN_SIZE);
    return new StoreOptions(retry, size, threshold);
  }

  public RetryPolicy retryPolicy() {
    return retryPolicy;
  }

  public long multipartSize() {
    return multipartSize;
  }

  public long multipartThreshold() {
    return multipartThreshold;
  }

  @Override
  public String toString() {
    return "StoreOptions{" + retryPolicy + ", multipart size " + multipartSize + ", threshold " + multipartThreshold
        + "}";
  }
}
