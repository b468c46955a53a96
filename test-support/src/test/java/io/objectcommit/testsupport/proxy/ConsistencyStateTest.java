package io.objectcommit.testsupport.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ConsistencyStateTest {

  private final AtomicLong clock = new AtomicLong(500_000);
  private final ConsistencyState state = new ConsistencyState(clock::get);
  private final FaultPlan plan = FaultPlan.builder(1).listingInconsistency(Duration.ofSeconds(2))
      .negativeCaching(Duration.ofSeconds(3)).staleReadAfterOverwrite(Duration.ofSeconds(4)).build();

  @Test
  void writtenKeysAreHiddenForTheWindowOnly() {
    state.recordWrite("b/k", null);
    assertTrue(state.hiddenFromListing("b/k", plan));
    assertTrue(state.anyHiddenUnder("b/", plan));
    clock.addAndGet(1_999);
    assertTrue(state.hiddenFromListing("b/k", plan));
    clock.addAndGet(1);
    assertFalse(state.hiddenFromListing("b/k", plan));
    assertFalse(state.hiddenFromListing("b/k", FaultPlan.none()));
  }

  @Test
  void patternRestrictsListingFaults() {
    FaultPlan only = plan.toBuilder().listingOnly("part-00001").build();
    state.recordWrite("b/t/part-00001.parquet", null);
    state.recordWrite("b/t/part-00002.parquet", null);
    assertTrue(state.hiddenFromListing("b/t/part-00001.parquet", only));
    assertFalse(state.hiddenFromListing("b/t/part-00002.parquet", only));
  }

  @Test
  void deletedKeysStayListedUntilRecreated() {
    ListingEntry e = new ListingEntry("d/x", 5, "\"e\"", "2026-01-01T00:00:00.000Z");
    state.recordDelete("b/d/x", e);
    state.recordDelete("b/d/never-existed", null);
    assertEquals(List.of(e), state.ghostsUnder("b", "d/", plan));
    assertEquals(List.of(), state.ghostsUnder("b", "other/", plan));
    state.recordWrite("b/d/x", null);
    assertEquals(List.of(), state.ghostsUnder("b", "d/", plan));
  }

  @Test
  void negativeCacheAndStaleVersionExpire() {
    state.recordMissing("b/n");
    state.recordWrite("b/n", null);
    assertTrue(state.negativelyCached("b/n", plan));
    clock.addAndGet(3_000);
    assertFalse(state.negativelyCached("b/n", plan));

    StoredObject old = new StoredObject(new byte[] {1, 2}, Map.of("etag", "\"o\""));
    state.recordWrite("b/s", old);
    assertEquals(old, state.staleVersion("b/s", plan).orElseThrow());
    clock.addAndGet(4_000);
    assertTrue(state.staleVersion("b/s", plan).isEmpty());
    state.recordWrite("b/s", old);
    state.recordDelete("b/s", null);
    assertTrue(state.staleVersion("b/s", plan).isEmpty(), "a delete ends the stale window");
  }
}
