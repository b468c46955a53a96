package io.objectcommit.testsupport.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FaultInjectorTest {

  private static final S3Request PUT_A = S3Request.classify("PUT", "/b/data/a", null);
  private static final S3Request PUT_X = S3Request.classify("PUT", "/b/other/x", null);
  private static final S3Request GET_A = S3Request.classify("GET", "/b/data/a", null);

  private static List<String> decisions(FaultPlan plan, int n) {
    FaultInjector f = new FaultInjector(plan);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      S3Request r = i % 3 == 0 ? GET_A : PUT_A;
      FaultInjector.Decision d = f.decide(r);
      out.add((d.error == null ? "-" : d.error.kind().name()) + "/" + d.latencyMs);
    }
    return out;
  }

  private static FaultPlan randomPlan(long seed) {
    return FaultPlan.builder(seed)
        .latency(Duration.ofMillis(20), Duration.ofMillis(30))
        .error(ErrorRule.atRate(ErrorKind.SLOW_DOWN, 0.2, Set.of()))
        .error(ErrorRule.atRate(ErrorKind.INTERNAL_ERROR, 0.1, Set.of(S3Operation.PUT)))
        .build();
  }

  @Test
  void sameSeedSameDecisionsDifferentSeedDifferentOnes() {
    List<String> a = decisions(randomPlan(42), 200);
    assertEquals(a, decisions(randomPlan(42), 200));
    assertNotEquals(a, decisions(randomPlan(43), 200));
    assertTrue(a.stream().anyMatch(s -> s.startsWith("SLOW_DOWN")), a.toString());
    assertTrue(a.stream().anyMatch(s -> s.startsWith("INTERNAL_ERROR")), a.toString());
    assertTrue(a.stream().allMatch(s -> {
      long ms = Long.parseLong(s.substring(s.indexOf('/') + 1));
      return ms >= 20 && ms <= 50;
    }), a.toString());
  }

  @Test
  void rateIsRoughlyHonoured() {
    FaultInjector f = new FaultInjector(FaultPlan.builder(7)
        .error(ErrorRule.atRate(ErrorKind.SLOW_DOWN, 0.25, Set.of())).build());
    int fired = 0;
    for (int i = 0; i < 10_000; i++) {
      if (f.decide(PUT_A).error != null) {
        fired++;
      }
    }
    assertTrue(fired > 2_300 && fired < 2_700, "fired " + fired + " of 10000 at rate 0.25");
  }

  @Test
  void nthMatchingRequestOnlyCountingOnlyMatches() {
    ErrorRule rule = ErrorRule.onNth(ErrorKind.RESET, 3, Set.of(S3Operation.PUT)).matching("^b/data/");
    FaultInjector f = new FaultInjector(FaultPlan.builder(1).error(rule).build());
    assertNull(f.decide(PUT_A).error);
    assertNull(f.decide(PUT_X).error);
    assertNull(f.decide(GET_A).error);
    assertNull(f.decide(PUT_A).error);
    assertSame(rule, f.decide(PUT_A).error);
    assertNull(f.decide(PUT_A).error);
  }

  @Test
  void firstFiringRuleWinsButEveryMatchingRuleCounts() {
    ErrorRule first = ErrorRule.onNth(ErrorKind.SLOW_DOWN, 1, Set.of());
    ErrorRule second = ErrorRule.onNth(ErrorKind.INTERNAL_ERROR, 2, Set.of());
    FaultInjector f = new FaultInjector(FaultPlan.builder(1).error(first).error(second).build());
    assertSame(first, f.decide(PUT_A).error);
    assertSame(second, f.decide(PUT_A).error);
    assertNull(f.decide(PUT_A).error);
  }

  @Test
  void rejectsNonsense() {
    assertThrows(IllegalArgumentException.class, () -> ErrorRule.atRate(ErrorKind.SLOW_DOWN, 1.5, Set.of()));
    assertThrows(IllegalArgumentException.class, () -> ErrorRule.onNth(ErrorKind.SLOW_DOWN, 0, Set.of()));
    assertThrows(IllegalArgumentException.class, () -> FaultPlan.builder(1).negativeCaching(Duration.ofMillis(-1)));
  }
}
