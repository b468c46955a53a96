package io.objectcommit.store.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.ActionDeniedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.testing.InMemoryObjectStore;
import java.io.IOException;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The check run on demand ({@code objectcommit store check}): each guarantee's own requests, and its failures. */
class StoreCheckTest {

  private static final String OPERATION = "objectcommit store check s3a://b/team-a";

  /**
   * The requests each guarantee costs on a store that gives it (docs/stores.md, "Cost of the check"): PUT, refused
   * PUT, GET; initiate, part, complete, the refused second upload (3), GET; two PUTs, refused stale PUT, GET, refused
   * PUT of a missing key, GET, PUT; ...
   */
  static final Map<StoreGuarantee, Long> REQUESTS = new EnumMap<>(Map.of(
      StoreGuarantee.IF_NONE_MATCH_PUT, 3L,
      StoreGuarantee.IF_NONE_MATCH_COMPLETE, 7L,
      StoreGuarantee.IF_MATCH_PUT, 7L,
      StoreGuarantee.IF_MATCH_COMPLETE, 13L,
      StoreGuarantee.ABORT_KEEPS_EXISTING, 5L,
      StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE, 48L,
      StoreGuarantee.ATOMIC_COMPARE_AND_SWAP, 33L));

  private static StoreCheck run(ObjectStore store) throws IOException {
    return StoreCheck.run(store, "s3://b on a test", null, "team-a/", OPERATION, true);
  }

  @Test
  void everyGuaranteeIsCountedAlone() throws Exception {
    InMemoryObjectStore store = InMemoryObjectStore.create("b");
    StoreCheck check = run(store);
    GuaranteeReport r = check.report();
    assertTrue(check.allHold(), r.toString());
    assertEquals(List.of(StoreGuarantee.IF_NONE_MATCH_PUT, StoreGuarantee.IF_NONE_MATCH_COMPLETE,
        StoreGuarantee.IF_MATCH_PUT, StoreGuarantee.IF_MATCH_COMPLETE, StoreGuarantee.ABORT_KEEPS_EXISTING,
        StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE, StoreGuarantee.ATOMIC_COMPARE_AND_SWAP), r.asked(),
        "the sequential guarantees, then the races");
    Map<StoreGuarantee, Long> seen = new EnumMap<>(StoreGuarantee.class);
    r.asked().forEach(g -> seen.put(g, r.cost(g).orElseThrow().requests()));
    assertEquals(REQUESTS, seen);
    assertEquals(3 + 1, r.cleanup().orElseThrow().requests(), "an abort per refused completion (3), one bulk DELETE");
    assertEquals(r.requests(), seen.values().stream().mapToLong(Long::longValue).sum()
        + r.cleanup().orElseThrow().requests(), "the parts add up to the whole");
    assertEquals("team-a/", check.probePrefix());
    assertTrue(r.where().startsWith("s3://b/team-a/check-"), r.where());
    assertEquals(List.of(), store.keys(""));
    assertEquals(List.of(), store.pendingUploads(""));
  }

  @Test
  void aStoreIgnoringConditionsOnPutFailsAndTheRacesAreNotChecked() throws Exception {
    InMemoryObjectStore inner = InMemoryObjectStore.create("b");
    ObjectStore ignoresConditions = new BrokenStore(inner) {
      @Override
      public ObjectInfo put(String key, Payload payload, WriteCondition c) throws IOException {
        return inner.put(key, payload, WriteCondition.none());
      }
    };
    StoreCheck check = run(ignoresConditions);
    GuaranteeReport r = check.report();
    assertFalse(check.allHold());
    assertEquals(Set.of(StoreGuarantee.IF_NONE_MATCH_PUT, StoreGuarantee.IF_MATCH_PUT), r.failures().keySet(),
        r.toString());
    assertEquals("a second exclusive PutObject of one key succeeded", r.failures().get(StoreGuarantee
        .IF_NONE_MATCH_PUT));
    assertEquals(EnumSet.of(StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE, StoreGuarantee.ATOMIC_COMPARE_AND_SWAP),
        r.notChecked());
    assertEquals(2, r.cost(StoreGuarantee.IF_NONE_MATCH_PUT).orElseThrow().requests(), "two PUTs, both won");
    assertEquals(3, r.cost(StoreGuarantee.IF_MATCH_PUT).orElseThrow().requests(), "two PUTs, the stale one won");
    assertTrue(r.cost(StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE).isEmpty());
    assertEquals(List.of(), inner.keys(""));
  }

  @Test
  void aCheckThatCannotRunNamesTheActionTheKeyAndTheOperation() {
    InMemoryObjectStore inner = InMemoryObjectStore.create("b");
    ObjectStore refusing = new BrokenStore(inner) {
      @Override
      public ObjectInfo put(String key, Payload payload, WriteCondition c) throws IOException {
        throw new ActionDeniedException(pathOf(key), "b", key, "s3:PutObject", "403 AccessDenied");
      }
    };
    ActionDeniedException e = assertThrows(ActionDeniedException.class, () -> run(refusing));
    assertEquals("s3:PutObject", e.action());
    assertTrue(e.key().startsWith("team-a/check-"), e.key());
    assertTrue(e.getMessage().contains(": " + OPERATION + ": checking that s3://b on a test supports conditional"
        + " writes failed: s3:PutObject on b/team-a/check-"), e.getMessage());
    assertFalse(e.getMessage().contains("fs.objectcommit.conditional-writes="), "not the mode: " + e.getMessage());
  }
}
