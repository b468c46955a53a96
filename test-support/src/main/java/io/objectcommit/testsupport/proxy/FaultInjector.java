package io.objectcommit.testsupport.proxy;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The random choices of one {@link FaultPlan}: which requests fail and how long each is delayed. Each error rule
 * and the latency have their own generator, seeded from the plan's seed and the rule's position, and each draws
 * once per matching request; so for a given seed the Nth request matching a rule always gets the same answer,
 * whatever else is going on. Thread-safe.
 */
final class FaultInjector {

  private final FaultPlan plan;
  private final SplittableRandom[] ruleRandoms;
  private final long[] ruleMatches;
  private final SplittableRandom latencyRandom;

  FaultInjector(FaultPlan plan) {
    this.plan = plan;
    List<ErrorRule> rules = plan.errors();
    this.ruleRandoms = new SplittableRandom[rules.size()];
    this.ruleMatches = new long[rules.size()];
    for (int i = 0; i < rules.size(); i++) {
      ruleRandoms[i] = new SplittableRandom(plan.seed() * 1_000_003L + i + 1);
    }
    this.latencyRandom = new SplittableRandom(plan.seed() ^ 0x5DEECE66DL);
  }

  FaultPlan plan() {
    return plan;
  }

  /** The rule that fails this request, or null. Every matching rule counts the request and draws. */
  synchronized ErrorRule errorFor(S3Request request) {
    ErrorRule fired = null;
    List<ErrorRule> rules = plan.errors();
    for (int i = 0; i < rules.size(); i++) {
      ErrorRule rule = rules.get(i);
      if (!rule.matches(request)) {
        continue;
      }
      long count = ++ruleMatches[i];
      double draw = ruleRandoms[i].nextDouble();
      if (fired == null && rule.fires(count, draw)) {
        fired = rule;
      }
    }
    return fired;
  }

  /** The delay for the next request, in milliseconds. */
  synchronized long nextLatencyMs() {
    long jitter = plan.latencyJitterMs();
    return plan.latencyFixedMs() + (jitter > 0 ? latencyRandom.nextLong(jitter + 1) : 0);
  }
}
