package io.objectcommit.testsupport.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SeededFaultsTest {

  private static final int REQUESTS = 20_000;

  /** A request sequence as a job sends it: every kind of operation, on a few keys. */
  private static S3Request request(int i) {
    switch (i % 6) {
      case 0:
        return S3Request.classify("PUT", "/b/t/part-" + i, null);
      case 1:
        return S3Request.classify("HEAD", "/b/t/part-" + (i - 1), null);
      case 2:
        return S3Request.classify("GET", "/b?list-type=2&prefix=t/", null);
      case 3:
        return S3Request.classify("POST", "/b/t/big-" + i + "?uploads", null);
      case 4:
        return S3Request.classify("POST", "/b?delete", null);
      default:
        return S3Request.classify("GET", "/b/t/part-" + (i - 5), null);
    }
  }

  private static List<String> decisions(long seed, int n) {
    FaultInjector f = new FaultInjector(SeededFaults.plan(seed));
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(f.decide(request(i)).toString());
    }
    return out;
  }

  @Test
  void sameSeedSamePlanAndSameDecisions() {
    assertEquals(SeededFaults.plan(5).toString(), SeededFaults.plan(5).toString());
    assertEquals(decisions(5, 2_000), decisions(5, 2_000));
    assertNotEquals(decisions(5, 2_000), decisions(6, 2_000));
  }

  @Test
  void everyFaultIsOnAndItsParametersAreWithinBounds() {
    for (long seed = 1; seed <= 50; seed++) {
      FaultPlan p = SeededFaults.plan(seed);
      assertTrue(p.latencyJitterMs() >= SeededFaults.MIN_JITTER_MS
          && p.latencyJitterMs() <= SeededFaults.MAX_JITTER_MS, p.toString());
      for (long w : new long[] {p.listingHideCreatedMs(), p.listingShowDeletedMs(), p.negativeCacheMs()}) {
        assertTrue(w >= SeededFaults.MIN_WINDOW_MS && w <= SeededFaults.MAX_WINDOW_MS, p.toString());
      }
      assertEquals(4, p.errors().size(), p.toString());
      assertTrue(p.errors().get(3).isAfterUpstream() && p.errors().get(3).kind() == ErrorKind.RESET, p.toString());
    }
  }

  @Test
  void errorRateAndMixAreWithinBounds() {
    for (long seed : new long[] {1, 2, 3}) {
      FaultPlan plan = SeededFaults.plan(seed);
      FaultInjector f = new FaultInjector(plan);
      Map<String, Integer> byKind = new TreeMap<>();
      int failed = 0;
      for (int i = 0; i < REQUESTS; i++) {
        FaultInjector.Decision d = f.decide(request(i));
        assertTrue(d.latencyMs >= 0 && d.latencyMs <= plan.latencyJitterMs(), d.toString());
        if (d.error != null) {
          failed++;
          byKind.merge(d.toString().substring(0, d.toString().indexOf('/')), 1, Integer::sum);
        }
      }
      double rate = failed / (double) REQUESTS;
      assertTrue(rate > 0.042 && rate < 0.058, "seed " + seed + ": error rate " + rate);
      assertEquals(4, byKind.size(), "all four kinds occur: " + byKind);
      for (int n : byKind.values()) {
        assertTrue(n > REQUESTS * 0.008 && n < REQUESTS * 0.018, "each kind near 1.25%: " + byKind);
      }
      long[] fired = f.firedCounts();
      assertEquals(failed, fired[0] + fired[1] + fired[2] + fired[3]);
    }
  }
}
