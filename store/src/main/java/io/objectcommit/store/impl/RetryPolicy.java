package io.objectcommit.store.impl;

import java.util.Set;
import java.util.function.DoubleSupplier;

/**
 * Which failures are retried, how often, and how long to wait: capped exponential backoff with full jitter
 * (the wait before retry {@code n} is uniform in {@code [0, min(max, base * 2^n)]}). Immutable.
 *
 * <p>Retried: throttling (503 SlowDown and friends), 500/502/504, 409 ConditionalRequestConflict (a race inside
 * S3 between conditional writes), reset connections and timeouts, and, fewer times, connections that cannot be
 * established. Never retried: every other 4xx (bad request, access denied, not found, precondition failed...),
 * unknown hosts, and interruption.
 */
public final class RetryPolicy {

  /** How a failure is handled. */
  public enum Kind {
    /** Fail now. */
    FAIL,
    /** Retry up to the transient limit. */
    TRANSIENT,
    /** Retry up to the throttling limit. */
    THROTTLED,
    /** Retry up to the connect limit. */
    CONNECT
  }

  private static final Set<String> THROTTLE_CODES = Set.of("SlowDown", "Throttling", "ThrottlingException",
      "RequestLimitExceeded", "TooManyRequests", "RequestThrottled", "ProvisionedThroughputExceededException");

  private final int transientLimit;
  private final int throttleLimit;
  private final int connectLimit;
  private final long baseMs;
  private final long maxMs;

  public RetryPolicy(int transientLimit, int throttleLimit, int connectLimit, long baseMs, long maxMs) {
    this.transientLimit = transientLimit;
    this.throttleLimit = throttleLimit;
    this.connectLimit = connectLimit;
    this.baseMs = baseMs;
    this.maxMs = Math.max(baseMs, maxMs);
  }

  /** Classifies a failed request (the same on both SDK bindings). */
  public static Kind classify(RequestFailure e) {
    switch (e.network()) {
      case NONE:
        return classifyAnswer(e.status(), e.errorCode());
      case REFUSED:
        return Kind.CONNECT;
      case RESET:
      case TIMEOUT:
        return Kind.TRANSIENT;
      case UNKNOWN_HOST:
      case INTERRUPTED:
      case NO_CREDENTIALS:
        return Kind.FAIL;
      default:
        // Other client-side failures: the SDK says whether the request may be repeated (e.g. truncated answers).
        return e.sdkRetryable() ? Kind.TRANSIENT : Kind.FAIL;
    }
  }

  private static Kind classifyAnswer(int status, String code) {
    if (status == 503 || status == 429 || (code != null && THROTTLE_CODES.contains(code))) {
      return Kind.THROTTLED;
    }
    if (status == 500 || status == 502 || status == 504 || "InternalError".equals(code)) {
      return Kind.TRANSIENT;
    }
    if (status == 409 && "ConditionalRequestConflict".equals(code)) {
      return Kind.TRANSIENT;
    }
    return Kind.FAIL;
  }

  /**
   * Whether to retry after a failure of this kind, given how many retries of each kind already happened.
   *
   * @param retriesOfKind retries already made for failures of {@code kind}
   */
  public boolean shouldRetry(Kind kind, int retriesOfKind) {
    switch (kind) {
      case TRANSIENT:
        return retriesOfKind < transientLimit;
      case THROTTLED:
        return retriesOfKind < throttleLimit;
      case CONNECT:
        return retriesOfKind < connectLimit;
      default:
        return false;
    }
  }

  /** The wait before retry number {@code retry} (0-based), with full jitter from {@code random} in [0, 1). */
  public long backoffMs(int retry, DoubleSupplier random) {
    long cap = baseMs << Math.min(retry, 30);
    if (cap <= 0 || cap > maxMs) {
      cap = maxMs;
    }
    return Math.round(cap * random.getAsDouble());
  }

  /** The longest a caller can wait in backoff for failures of one kind (sum of the caps), for documentation. */
  public long maxTotalBackoffMs(Kind kind) {
    int limit = kind == Kind.THROTTLED ? throttleLimit : kind == Kind.CONNECT ? connectLimit : transientLimit;
    long sum = 0;
    for (int i = 0; i < limit; i++) {
      long cap = baseMs << Math.min(i, 30);
      sum += cap <= 0 || cap > maxMs ? maxMs : cap;
    }
    return sum;
  }

  @Override
  public String toString() {
    return "retries: transient " + transientLimit + ", throttled " + throttleLimit + ", connect " + connectLimit
        + ", backoff " + baseMs + ".." + maxMs + " ms";
  }
}
