package io.objectcommit.testsupport.proxy;

import java.time.Duration;
import java.util.Random;
import java.util.Set;

/**
 * The fault mix of the seeded whole-job runs: every request, whatever its operation, is subject at once to
 * <ul>
 *   <li>errors at a total rate of {@value #ERROR_RATE}, in four kinds of equal weight: 503 SlowDown, 500
 *       InternalError, a connection reset before the store saw the request, and a connection reset after the
 *       store applied it (the client cannot know it worked);</li>
 *   <li>latency jitter: a uniform delay in [0, J] ms per request, J drawn in [{@value #MIN_JITTER_MS},
 *       {@value #MAX_JITTER_MS}];</li>
 *   <li>listing lag: keys written in the last L ms are missing from listings and keys deleted in the last L ms
 *       are still listed, L drawn in [{@value #MIN_WINDOW_MS}, {@value #MAX_WINDOW_MS}];</li>
 *   <li>negative caching: after a 404 on GET/HEAD of a key, GET/HEAD of it answer 404 for N ms, N drawn in the
 *       same range.</li>
 * </ul>
 * The plan's shape (J, L, N) is drawn from {@code java.util.Random(seed)} here; each request's delay and error
 * are drawn by the proxy from {@code java.util.Random(seed)} as well ({@link FaultInjector}), so a seed
 * reproduces a run as far as the order of concurrent requests allows.
 */
public final class SeededFaults {

  /** The probability that a request fails (one of the four kinds). */
  public static final double ERROR_RATE = 0.05;
  public static final long MIN_JITTER_MS = 5;
  public static final long MAX_JITTER_MS = 30;
  public static final long MIN_WINDOW_MS = 500;
  public static final long MAX_WINDOW_MS = 3000;

  private static final ErrorKind[] KINDS = {ErrorKind.SLOW_DOWN, ErrorKind.INTERNAL_ERROR, ErrorKind.RESET};

  private SeededFaults() {
  }

  /** The plan for {@code seed}. */
  public static FaultPlan plan(long seed) {
    Random r = new Random(seed);
    long jitter = between(r, MIN_JITTER_MS, MAX_JITTER_MS);
    long listingLag = between(r, MIN_WINDOW_MS, MAX_WINDOW_MS);
    long negativeCache = between(r, MIN_WINDOW_MS, MAX_WINDOW_MS);
    // Four rules, consulted in order, the first that fires wins: each fires at p so that 1 - (1 - p)^4 is the rate.
    double p = 1 - Math.pow(1 - ERROR_RATE, 1.0 / (KINDS.length + 1));
    FaultPlan.Builder b = FaultPlan.builder(seed)
        .latency(Duration.ZERO, Duration.ofMillis(jitter))
        .listingInconsistency(Duration.ofMillis(listingLag))
        .negativeCaching(Duration.ofMillis(negativeCache));
    for (ErrorKind kind : KINDS) {
      b.error(ErrorRule.atRate(kind, p, Set.of()));
    }
    b.error(ErrorRule.atRate(ErrorKind.RESET, p, Set.of()).afterUpstream());
    return b.build();
  }

  private static long between(Random r, long min, long max) {
    return min + r.nextInt((int) (max - min + 1));
  }
}
