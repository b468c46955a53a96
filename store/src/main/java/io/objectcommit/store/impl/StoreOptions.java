package io.objectcommit.store.impl;

import io.objectcommit.store.config.ConfigReader;
import static io.objectcommit.store.StoreConstants.CONDITIONAL_WRITES;
import static io.objectcommit.store.StoreConstants.CONDITIONAL_WRITES_DEFAULT;
import static io.objectcommit.store.StoreConstants.MULTIPART_MIN_SIZE;
import static io.objectcommit.store.StoreConstants.MULTIPART_SIZE;
import static io.objectcommit.store.StoreConstants.MULTIPART_SIZE_DEFAULT;
import static io.objectcommit.store.StoreConstants.MULTIPART_THRESHOLD;
import static io.objectcommit.store.StoreConstants.MULTIPART_THRESHOLD_DEFAULT;
import static io.objectcommit.store.StoreConstants.PROBE_PREFIX;
import static io.objectcommit.store.StoreConstants.PROBE_PREFIX_DEFAULT;
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

import java.util.Locale;

/** The store's own settings (retries, multipart, conditional writes), parsed once; immutable. */
public final class StoreOptions {

  /** {@link io.objectcommit.store.StoreConstants#CONDITIONAL_WRITES} values. */
  public enum ConditionalWritesMode {
    DETECT, ASSUME, EMULATE
  }

  private final RetryPolicy retryPolicy;
  private final long multipartSize;
  private final long multipartThreshold;
  private final ConditionalWritesMode conditionalWrites;
  private final String probePrefix;

  public StoreOptions(RetryPolicy retryPolicy, long multipartSize, long multipartThreshold,
      ConditionalWritesMode conditionalWrites, String probePrefix) {
    this.retryPolicy = retryPolicy;
    this.multipartSize = multipartSize;
    this.multipartThreshold = multipartThreshold;
    this.conditionalWrites = conditionalWrites;
    this.probePrefix = probePrefix;
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
    ConditionalWritesMode mode = r.getEnum(CONDITIONAL_WRITES, ConditionalWritesMode.class,
        ConditionalWritesMode.valueOf(CONDITIONAL_WRITES_DEFAULT.toUpperCase(Locale.ROOT)));
    String probe = r.get(PROBE_PREFIX, PROBE_PREFIX_DEFAULT);
    return new StoreOptions(retry, size, threshold, mode, probe.endsWith("/") ? probe : probe + "/");
  }

  public RetryPolicy retryPolicy() {
    return retryPolicy;
  }

  public long multipartSize() {
    return multipartSize;
  }

  /** These options with another conditional-writes mode (the guarantee check writes with ASSUME). */
  public StoreOptions withConditionalWrites(ConditionalWritesMode mode) {
    return new StoreOptions(retryPolicy, multipartSize, multipartThreshold, mode, probePrefix);
  }

  public long multipartThreshold() {
    return multipartThreshold;
  }

  public ConditionalWritesMode conditionalWrites() {
    return conditionalWrites;
  }

  public String probePrefix() {
    return probePrefix;
  }

  @Override
  public String toString() {
    return "StoreOptions{" + retryPolicy + ", multipart size " + multipartSize + ", threshold " + multipartThreshold
        + ", conditional writes " + conditionalWrites + "}";
  }
}
