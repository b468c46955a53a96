package io.objectcommit.store.impl;

import io.objectcommit.store.statistics.StoreStatistics;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one store operation: sends the request, times and counts it, retries what {@link RetryPolicy} allows, and
 * translates the final failure once ({@link ErrorTranslation}). Every request, retry and failure is recorded in
 * {@link StoreStatistics} under the operation's name; retries apart by kind (throttled, or transient: the
 * {@link RetryPolicy} kinds TRANSIENT and CONNECT).
 */
final class Invoker {

  private static final Logger LOG = LoggerFactory.getLogger(Invoker.class);

  /** One attempt of a request; {@code attempt} is 0 for the first. */
  @FunctionalInterface
  interface Call<T> {
    T run(int attempt) throws IOException;
  }

  /**
   * Decides what a failure that the retry policy would not retry means, with knowledge of the attempt: a
   * conditional write whose precondition failed after an ambiguous earlier attempt may have been our own success.
   * Returns a result to report success, or null to let the failure be translated and thrown.
   */
  @FunctionalInterface
  interface FailureHandler<T> {
    T onFailure(RequestFailure e, int attempt) throws IOException;
  }

  /** Sleeps between retries; replaced in tests. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(long ms) throws InterruptedException;
  }

  private final RetryPolicy policy;
  private final StoreStatistics statistics;
  private final ErrorTranslation errors;
  private final Sleeper sleeper;

  Invoker(RetryPolicy policy, StoreStatistics statistics, ErrorTranslation errors, Sleeper sleeper) {
    this.policy = policy;
    this.statistics = statistics;
    this.errors = errors;
    this.sleeper = sleeper;
  }

  <T> T invoke(String op, String path, Call<T> call) throws IOException {
    return invoke(op, path, call, null);
  }

  <T> T invoke(String op, String path, Call<T> call, FailureHandler<T> handler) throws IOException {
    Map<RetryPolicy.Kind, Integer> retries = new EnumMap<>(RetryPolicy.Kind.class);
    for (int attempt = 0; ; attempt++) {
      long t0 = System.nanoTime();
      try {
        T result = call.run(attempt);
        statistics.recordRequest(op, elapsedMs(t0), false);
        return result;
      } catch (RequestFailure e) {
        statistics.recordRequest(op, elapsedMs(t0), true);
        RetryPolicy.Kind kind = RetryPolicy.classify(e);
        int done = retries.getOrDefault(kind, 0);
        if (!policy.shouldRetry(kind, done)) {
          if (handler != null) {
            T recovered = handler.onFailure(e, attempt);
            if (recovered != null) {
              return recovered;
            }
          }
          throw errors.translate(op, path, e, attempt);
        }
        retries.put(kind, done + 1);
        statistics.recordRetry(op, kind == RetryPolicy.Kind.THROTTLED ? StoreStatistics.RetryKind.THROTTLED
            : StoreStatistics.RetryKind.TRANSIENT);
        long wait = policy.backoffMs(done, () -> ThreadLocalRandom.current().nextDouble());
        LOG.debug("{} {}: {} failure, retry {} in {} ms: {}", op, path, kind, done + 1, wait, e.toString());
        try {
          sleeper.sleep(wait);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          InterruptedIOException iioe = new InterruptedIOException(path + ": " + op + " interrupted while waiting"
              + " to retry");
          iioe.initCause(e);
          throw iioe;
        }
      }
    }
  }

  StoreStatistics statistics() {
    return statistics;
  }

  ErrorTranslation errors() {
    return errors;
  }

  private static long elapsedMs(long t0) {
    return (System.nanoTime() - t0) / 1_000_000;
  }
}
