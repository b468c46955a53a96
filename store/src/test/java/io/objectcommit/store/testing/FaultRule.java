package io.objectcommit.store.testing;

import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.PathIOException;

/**
 * When an {@link InMemoryObjectStore} fails a request, and how: requests of some {@link S3Operation}s whose key
 * contains a match of a pattern (for a bulk delete: any key of the batch; for a listing: the prefix), on every
 * match, on the Nth match only, or on the first N matches; before the request is applied (the store never saw it)
 * or {@link #afterApplying() after} (it took effect, the answer was lost). The exception is what the caller of
 * the store receives, as the real store reports a failure after its own retries. Immutable; the match counters
 * live in the store that installed the rule.
 */
public final class FaultRule {

  private final Set<S3Operation> operations;
  private final Pattern keyPattern;
  private final long nth;
  private final long times;
  private final boolean afterApplying;
  private final int status;
  private final Function<String, ? extends IOException> exception;
  private final boolean onInterruptedThread;

  private FaultRule(Set<S3Operation> operations, Pattern keyPattern, long nth, long times, boolean afterApplying,
      int status, Function<String, ? extends IOException> exception) {
    this(operations, keyPattern, nth, times, afterApplying, status, exception, false);
  }

  private FaultRule(Set<S3Operation> operations, Pattern keyPattern, long nth, long times, boolean afterApplying,
      int status, Function<String, ? extends IOException> exception, boolean onInterruptedThread) {
    this.operations = operations;
    this.keyPattern = keyPattern;
    this.nth = nth;
    this.times = times;
    this.afterApplying = afterApplying;
    this.status = status;
    this.exception = exception;
    this.onInterruptedThread = onInterruptedThread;
  }

  /**
   * Fails every request sent from a thread whose interrupt flag is set, with an {@link InterruptedIOException}
   * (counted as a 499, never sent), as the AWS SDKs do: Spark interrupts the threads of the tasks it cancels.
   */
  public static FaultRule onInterruptedThreads() {
    return new FaultRule(EnumSet.allOf(S3Operation.class), null, 0, 0, false, 499,
        path -> new InterruptedIOException(path + ": the request's thread was interrupted"), true);
  }

  /**
   * Fails every request of these operations (none given: of every operation) with a {@link PathIOException},
   * counted as a 500.
   */
  public static FaultRule failing(S3Operation... operations) {
    Set<S3Operation> ops = operations.length == 0 ? EnumSet.allOf(S3Operation.class)
        : EnumSet.of(operations[0], operations);
    return new FaultRule(ops, null, 0, 0, false, 500, null);
  }

  /** Only requests whose key (or a key of the batch, or the listed prefix) contains a match of {@code regex}. */
  public FaultRule matching(String regex) {
    return new FaultRule(operations, Pattern.compile(regex), nth, times, afterApplying, status, exception,
        onInterruptedThread);
  }

  /** Only the {@code n}th matching request (1-based). */
  public FaultRule onNth(long n) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be >= 1: " + n);
    }
    return new FaultRule(operations, keyPattern, n, 0, afterApplying, status, exception, onInterruptedThread);
  }

  /** Only the first {@code n} matching requests. */
  public FaultRule times(long n) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be >= 1: " + n);
    }
    return new FaultRule(operations, keyPattern, 0, n, afterApplying, status, exception, onInterruptedThread);
  }

  /** The request takes effect, then fails: "applied, but the response was lost". */
  public FaultRule afterApplying() {
    return new FaultRule(operations, keyPattern, nth, times, true, status, exception, onInterruptedThread);
  }

  /** The exception thrown, made from the request's {@code s3://bucket/key} path. */
  public FaultRule throwing(Function<String, ? extends IOException> byPath) {
    return new FaultRule(operations, keyPattern, nth, times, afterApplying, status,
        Objects.requireNonNull(byPath, "byPath"), onInterruptedThread);
  }

  /** The HTTP status the failed request is counted under (default 500). */
  public FaultRule countedAs(int httpStatus) {
    return new FaultRule(operations, keyPattern, nth, times, afterApplying, httpStatus, exception,
        onInterruptedThread);
  }

  boolean isAfterApplying() {
    return afterApplying;
  }

  int status() {
    return status;
  }

  /** True when the rule applies to a request (whether it fires depends on the match count). */
  boolean matches(S3Operation op, Collection<String> keys) {
    return operations.contains(op) && (!onInterruptedThread || Thread.currentThread().isInterrupted())
        && (keyPattern == null || keys.stream().anyMatch(k -> keyPattern.matcher(k).find()));
  }

  /** Whether it fires on its {@code count}th match (1-based). */
  boolean fires(long count) {
    if (nth > 0) {
      return count == nth;
    }
    return times == 0 || count <= times;
  }

  IOException exception(S3Operation op, String path) {
    return exception != null ? exception.apply(path)
        : new PathIOException(path, "injected failure of " + op + (afterApplying ? " (after applying it)" : ""));
  }

  @Override
  public String toString() {
    return "fail " + operations + (keyPattern == null ? "" : " matching /" + keyPattern + "/")
        + (nth > 0 ? " on match #" + nth : times > 0 ? " on the first " + times + " matches" : " always")
        + (afterApplying ? " after applying" : "") + (onInterruptedThread ? " on interrupted threads" : "");
  }
}
