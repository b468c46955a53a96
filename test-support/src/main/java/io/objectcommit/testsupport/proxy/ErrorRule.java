package io.objectcommit.testsupport.proxy;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * When to inject an error: on requests of some operations whose {@code bucket/key} matches a pattern, either at
 * a rate (a seeded coin toss per matching request) or on the Nth matching request only. Immutable.
 *
 * <p>By default the error replaces the request: the store never sees it. With {@link #afterUpstream()} the
 * request is forwarded and applied, and the error replaces the response (the client cannot know it worked).
 */
public final class ErrorRule {

  private final ErrorKind kind;
  private final Set<S3Operation> operations;
  private final Pattern pathPattern;
  private final double rate;
  private final long nth;
  private final boolean afterUpstream;

  private ErrorRule(ErrorKind kind, Set<S3Operation> operations, Pattern pathPattern, double rate, long nth,
      boolean afterUpstream) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.operations = Collections.unmodifiableSet(operations.isEmpty()
        ? EnumSet.allOf(S3Operation.class) : EnumSet.copyOf(operations));
    this.pathPattern = pathPattern;
    if (rate < 0 || rate > 1) {
      throw new IllegalArgumentException("rate must be in [0, 1]: " + rate);
    }
    if (nth < 0) {
      throw new IllegalArgumentException("nth must be >= 1: " + nth);
    }
    this.rate = rate;
    this.nth = nth;
    this.afterUpstream = afterUpstream;
  }

  /** Fails each matching request with probability {@code rate}. An empty operation set matches every one. */
  public static ErrorRule atRate(ErrorKind kind, double rate, Set<S3Operation> operations) {
    return new ErrorRule(kind, operations, null, rate, 0, false);
  }

  /** Fails the {@code n}th matching request (1-based) and no other. */
  public static ErrorRule onNth(ErrorKind kind, long n, Set<S3Operation> operations) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be >= 1: " + n);
    }
    return new ErrorRule(kind, operations, null, 0, n, false);
  }

  /**
   * A copy matching only requests whose {@code bucket/key} contains a match of {@code regex}
   * ({@link java.util.regex.Matcher#find()}).
   */
  public ErrorRule matching(String regex) {
    return new ErrorRule(kind, operations, Pattern.compile(regex), rate, nth, afterUpstream);
  }

  /** A copy that forwards the request first and replaces the store's response with the error. */
  public ErrorRule afterUpstream() {
    return new ErrorRule(kind, operations, pathPattern, rate, nth, true);
  }

  public ErrorKind kind() {
    return kind;
  }

  public boolean isAfterUpstream() {
    return afterUpstream;
  }

  /** True when this rule applies to the request (whether it then fires is decided by {@link FaultInjector}). */
  public boolean matches(S3Request request) {
    return operations.contains(request.operation())
        && (pathPattern == null || pathPattern.matcher(request.path()).find());
  }

  /** Whether the rule fires on the {@code count}th matching request, given a uniform draw in [0, 1). */
  boolean fires(long count, double draw) {
    return nth > 0 ? count == nth : draw < rate;
  }

  @Override
  public String toString() {
    String of = operations.size() == S3Operation.values().length ? "every request" : operations.toString();
    return kind + (nth > 0 ? " on match #" + nth : " at rate " + rate) + " of " + of
        + (pathPattern == null ? "" : " matching /" + pathPattern + "/") + (afterUpstream ? " after upstream" : "");
  }
}
