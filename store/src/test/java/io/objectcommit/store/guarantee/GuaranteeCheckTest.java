package io.objectcommit.store.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.impl.RequestFailure;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.PathIOException;
import org.junit.jupiter.api.Test;

/** The check against an honest in-memory store, and against stores broken the ways real ones were seen broken. */
class GuaranteeCheckTest {

  private static final String PREFIX = ".objectcommit/probe/";

  /** What this test's checks found: its own, so nothing is left from another test. */
  private final StoreGuarantees verdicts = new StoreGuarantees();

  private static GuaranteeReport check(ObjectStore store) throws IOException {
    return GuaranteeCheck.reporting(store, PREFIX)
        .run(EnumSet.allOf(StoreGuarantee.class));
  }

  @Test
  void anAtomicStorePassesEveryGuaranteeWithinBudgetAndLeavesNothing() throws Exception {
    InMemoryObjectStore store = InMemoryObjectStore.create("b");
    GuaranteeReport r = check(store);
    assertEquals(EnumSet.allOf(StoreGuarantee.class), r.held(), r.toString());
    assertTrue(r.requests() < 200, "requests: " + r.requests());
    assertEquals(List.of(), store.keys(""));
    assertEquals(List.of(), store.pendingUploads(""));
  }

  @Test
  void ignoredIfMatchOnCompleteIsFoundAsMotoDoes() throws Exception {
    ObjectStore moto = new BrokenStore(InMemoryObjectStore.create("b")) {
      @Override
      public ObjectInfo completeMultipartUpload(MultipartUpload u, List<UploadedPart> p, WriteCondition c)
          throws IOException {
        return super.completeMultipartUpload(u, p, c.kind() == WriteCondition.Kind.IF_MATCH ? WriteCondition.none() : c);
      }
    };
    assertEquals(Set.of(StoreGuarantee.IF_MATCH_COMPLETE), check(moto).failures().keySet());
  }

  @Test
  void anAbortThatDeletesTheExistingObjectIsFoundAsS3MockDoes() throws Exception {
    InMemoryObjectStore inner = InMemoryObjectStore.create("b");
    ObjectStore s3mock = new BrokenStore(inner) {
      @Override
      public void abortMultipartUpload(MultipartUpload u) throws IOException {
        super.abortMultipartUpload(u);
        inner.delete(u.key());
      }
    };
    assertEquals(Set.of(StoreGuarantee.ABORT_KEEPS_EXISTING), check(s3mock).failures().keySet());
  }

  @Test
  void racingWritesThatAllWinAreFound() throws Exception {
    InMemoryObjectStore inner = InMemoryObjectStore.create("b");
    ObjectStore racy = new BrokenStore(inner) {
      @Override
      public ObjectInfo put(String key, Payload payload, WriteCondition c) throws IOException {
        if (c.isConditional() && key.contains("race-")) { // checks first, writes later: every racer passes
          boolean ok = passesNow(inner, key, c);
          sleep(30);
          if (ok) {
            return inner.put(key, payload, WriteCondition.none());
          }
        }
        return inner.put(key, payload, c);
      }
    };
    GuaranteeReport r = check(racy);
    assertEquals(Set.of(StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE, StoreGuarantee.ATOMIC_COMPARE_AND_SWAP),
        r.failures().keySet(), r.toString());
    assertTrue(r.failures().get(StoreGuarantee.ATOMIC_COMPARE_AND_SWAP).contains("several winners"));
  }

  @Test
  void aStoreThatChecksOnTheHeadAndWritesOnceTheBodyIsInLosesEveryRound() throws Exception {
    InMemoryObjectStore inner = InMemoryObjectStore.create("b");
    ObjectStore likeS3Proxy = new BrokenStore(inner) {
      @Override
      public ObjectInfo put(String key, Payload payload, WriteCondition c) throws IOException {
        if (!c.isConditional() || !key.contains("race-")) {
          return inner.put(key, payload, c);
        }
        if (!passesNow(inner, key, c)) { // the condition, on the request head
          return inner.put(key, payload, c); // refused before the body, as the store answers 412
        }
        byte[] body;
        try (InputStream in = payload.open()) { // then the body, then the write, unconditionally
          body = in.readAllBytes();
        }
        return inner.put(key, Payload.of(body), WriteCondition.none());
      }
    };
    GuaranteeReport r = check(likeS3Proxy);
    // without the held bodies the writers' short requests mostly ran one after another: few rounds lost
    String rounds = GuaranteeCheck.DEFAULT_ROUNDS + " of " + GuaranteeCheck.DEFAULT_ROUNDS + " rounds";
    String casRounds = GuaranteeCheck.DEFAULT_CAS_ROUNDS + " of " + GuaranteeCheck.DEFAULT_CAS_ROUNDS + " rounds";
    assertTrue(r.failures().get(StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE).startsWith(rounds), r.toString());
    assertTrue(r.failures().get(StoreGuarantee.ATOMIC_COMPARE_AND_SWAP).startsWith(casRounds), r.toString());
    assertEquals(List.of(), inner.keys(""), "the check deletes what it wrote");
  }

  @Test
  void aStoreThatTakesOneWriteAtATimeCostsOneHeldBodyPerCheck() throws Exception {
    InMemoryObjectStore inner = InMemoryObjectStore.create("b");
    ObjectStore oneAtATime = new BrokenStore(inner) {
      @Override
      public synchronized ObjectInfo put(String key, Payload payload, WriteCondition c) throws IOException {
        return inner.put(key, payload, c);
      }
    };
    // holding each writer's body for the others would cost 3 holds in each of the 20 rounds: a minute
    GuaranteeReport r = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> check(oneAtATime));
    assertEquals(EnumSet.allOf(StoreGuarantee.class), r.held(), r.toString());
  }

  @Test
  void aComponentIsRefusedOnlyForTheGuaranteesItUsesAndEachIsCheckedOnce() throws Exception {
    InMemoryObjectStore inner = InMemoryObjectStore.create("b");
    ObjectStore moto = new BrokenStore(inner) {
      @Override
      public ObjectInfo completeMultipartUpload(MultipartUpload u, List<UploadedPart> p, WriteCondition c)
          throws IOException {
        return super.completeMultipartUpload(u, p, c.kind() == WriteCondition.Kind.IF_MATCH ? WriteCondition.none() : c);
      }
    };
    verdicts.require("s3://b on moto", "committer A", EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT), PREFIX,
        () -> moto);
    long after1 = moto.statistics().snapshot().totalRequests();
    verdicts.require("s3://b on moto", "committer A", EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT), PREFIX,
        () -> moto);
    assertEquals(after1, moto.statistics().snapshot().totalRequests(), "checked once");
    StoreGuaranteeException e = assertThrows(StoreGuaranteeException.class, () -> verdicts.require(
        "s3://b on moto", "component B", EnumSet.of(StoreGuarantee.IF_MATCH_COMPLETE), PREFIX, () -> moto));
    assertEquals(Set.of(StoreGuarantee.IF_MATCH_COMPLETE), e.failedGuarantees());
    // once refused, a component asking for that guarantee and others is refused without a request
    long after2 = moto.statistics().snapshot().totalRequests();
    assertThrows(StoreGuaranteeException.class, () -> verdicts.require("s3://b on moto", "component B",
        EnumSet.of(StoreGuarantee.IF_MATCH_COMPLETE, StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE), PREFIX, () -> moto));
    assertEquals(after2, moto.statistics().snapshot().totalRequests(), "no check after a known failure");
    assertTrue(e.getMessage().contains("IF_MATCH_COMPLETE") && e.getMessage().contains("s3://b on moto")
        && e.getMessage().contains("component B") && e.getMessage().contains("docs/stores.md"), e.getMessage());
  }

  @Test
  void theRefusingCheckStopsAtTheFirstFailureBeforeTheRaces() throws Exception {
    InMemoryObjectStore inner = InMemoryObjectStore.create("b");
    ObjectStore ignoresConditions = new BrokenStore(inner) {
      @Override
      public ObjectInfo put(String key, Payload payload, WriteCondition c) throws IOException {
        return inner.put(key, payload, WriteCondition.none());
      }
    };
    GuaranteeReport r = GuaranteeCheck.refusing(ignoresConditions, PREFIX).run(EnumSet.allOf(StoreGuarantee.class));
    assertEquals(Set.of(StoreGuarantee.IF_NONE_MATCH_PUT, StoreGuarantee.IF_MATCH_PUT), r.failures().keySet(),
        r.toString());
    assertEquals(EnumSet.complementOf(EnumSet.of(StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE,
        StoreGuarantee.ATOMIC_COMPARE_AND_SWAP)), r.checked(), "the races are not run after a failure");
    assertTrue(r.requests() < 60, "no race requests: " + r.requests());
    assertEquals(List.of(), inner.keys(""));
  }

  @Test
  void conditionalDeletesAreCheckedInFourRequestsAndFoundMissingWhereRefusedOrIgnored() throws Exception {
    InMemoryObjectStore honest = InMemoryObjectStore.create("b");
    GuaranteeReport r = GuaranteeCheck.reporting(honest, PREFIX).run(EnumSet.of(StoreGuarantee.IF_MATCH_DELETE));
    assertEquals(Set.of(StoreGuarantee.IF_MATCH_DELETE), r.held(), r.toString());
    InMemoryRequestCounts c = honest.counts();
    assertEquals(Map.of(S3Operation.PUT, Map.of(200, 1L), S3Operation.DELETE, Map.of(412, 1L, 204, 1L),
        S3Operation.GET, Map.of(200, 1L), S3Operation.BULK_DELETE, Map.of(200, 1L)), c.asMap(),
        "PUT, refused DELETE, GET, DELETE; then the cleanup: " + c);
    assertEquals(2, c.conditional(S3Operation.DELETE));
    assertEquals(List.of(), honest.keys(""));

    InMemoryObjectStore likeLocalStack = InMemoryObjectStore.create("b");
    likeLocalStack.setConditionalDeletes(false);
    r = GuaranteeCheck.reporting(likeLocalStack, PREFIX).run(EnumSet.of(StoreGuarantee.IF_MATCH_DELETE));
    assertTrue(r.failures().get(StoreGuarantee.IF_MATCH_DELETE).contains("rejects If-Match on DeleteObject (501)"),
        r.toString());
    assertEquals(List.of(), likeLocalStack.keys(""));

    InMemoryObjectStore inner = InMemoryObjectStore.create("b");
    ObjectStore ignoresConditions = new BrokenStore(inner) {
      @Override
      public void delete(String key, String ifMatchEtag) throws IOException {
        inner.delete(key);
      }
    };
    r = GuaranteeCheck.reporting(ignoresConditions, PREFIX).run(EnumSet.of(StoreGuarantee.IF_MATCH_DELETE));
    assertEquals("a DeleteObject with a stale If-Match deleted the object",
        r.failures().get(StoreGuarantee.IF_MATCH_DELETE), r.toString());

    ObjectStore answers405 = new BrokenStore(InMemoryObjectStore.create("b")) {
      @Override
      public void delete(String key, String ifMatchEtag) throws IOException {
        PathIOException e = new PathIOException(pathOf(key), "405 MethodNotAllowed");
        e.initCause(RequestFailure.answer(405, "MethodNotAllowed", "no preconditions here", null, null));
        throw e;
      }
    };
    r = GuaranteeCheck.reporting(answers405, PREFIX).run(EnumSet.of(StoreGuarantee.IF_MATCH_DELETE));
    assertEquals("the store rejects If-Match on DeleteObject (405)", r.failures().get(StoreGuarantee.IF_MATCH_DELETE),
        "an answer of the store, not a failure of the check: " + r);
  }

  @Test
  void theCompareAndSwapRaceGoesOnFromTheWinnersEtag() throws Exception {
    InMemoryObjectStore store = InMemoryObjectStore.create("b");
    GuaranteeReport r = new GuaranteeCheck(store, PREFIX, 1, 10, 4, 0, true)
        .run(EnumSet.of(StoreGuarantee.ATOMIC_COMPARE_AND_SWAP));
    assertEquals(Set.of(StoreGuarantee.ATOMIC_COMPARE_AND_SWAP), r.held(), r.toString());
    assertEquals(1 + 10 * 4 + 1, r.requests(), "one first PUT, the racing writes, the cleanup");
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
