package io.objectcommit.testsupport.proxy;

import java.util.List;
import java.util.Random;

/**
 * The random choices of one {@link FaultPlan}: how long each request is delayed and which fails. One
 * {@code java.util.Random(seed)} makes every choice, in a fixed order per request (the latency draw if the plan
 * has jitter, then one draw per error rule the request matches), so for a given seed the same sequence of
 * requests gets the same decisions. Requests served concurrently reach {@link #decide(S3Request)} in the order
 * the threads happen to run: a run with concurrent clients is reproducible only as far as that order is.
 * Thread-safe.
 */
final class FaultInjector {

  /** What happens to one request: a delay, and the rule whose error replaces it (or null). */
  static final class Decision {
    final long latencyMs;
    final ErrorRule error;

    Decision(long latencyMs, ErrorRule error) {
      this.latencyMs = latencyMs;
      this.error = error;
    }

    @Override
    public String toString() {
      return (error == null ? "-" : error.kind() + (error.isAfterUpstream() ? "-after" : "")) + "/" + latencyMs;
    }
  }

  private final FaultPlan plan;
  private final Random random;
  private final long[] ruleMatches;
  private final long[] ruleFired;

  FaultInjector(FaultPlan plan) {
    this.plan = plan;
    this.random = new Random(plan.seed());
    this.ruleMatches = new long[plan.errors().size()];
    this.ruleFired = new long[plan.errors().size()];
  }

  FaultPlan plan() {
    return plan;
  }

  /** Draws the decisions for the next request. Every matching rule counts the request and draws. */
  synchronized Decision decide(S3Request request) {
    long jitter = plan.latencyJitterMs();
    long latency = plan.latencyFixedMs() + (jitter > 0 ? (long) (random.nextDouble() * (jitter + 1)) : 0);
    ErrorRule fired = null;
    List<ErrorRule> rules = plan.errors();
    for (int i = 0; i < rules.size(); i++) {
      ErrorRule rule = rules.get(i);
      if (!rule.matches(request)) {
        continue;
      }
      long count = ++ruleMatches[i];
      double draw = random.nextDouble();
      if (fired == null && rule.fires(count, draw)) {
        fired = rule;
        ruleFired[i]++;
      }
    }
    return new Decision(latency, fired);
  }

  /** How often each rule of the plan fired so far, in the plan's order. */
  synchronized long[] firedCounts() {
    return ruleFired.clone();
  }
}
