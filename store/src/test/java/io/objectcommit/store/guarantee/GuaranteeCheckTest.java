package io.objectcommit.store.guarantee;

import io.objectcommit.store.impl.RetryPolicy;
import io.objectcommit.store.impl.StoreOptions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.ListPage;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoreCapabilities;
import io.objectcommit.store.StoredBytes;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.statistics.StoreStatistics;
import io.objectcommit.store.testing.InMemoryObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The check against an honest in-memory store, and against stores broken the ways real ones were seen broken. */
class GuaranteeCheckTest {

  private static final String PREFIX = ".objectcommit/probe/";

  @AfterEach
  void forget() {
    StoreGuarantees.reset();
  }

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
    ObjectStore moto = new Broken(InMemoryObjectStore.create("b")) {
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
    ObjectStore s3mock = new Broken(inner) {
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
    ObjectStore racy = new Broken(inner) {
      @Override
      public ObjectInfo put(String key, Payload payload, WriteCondition c) throws IOException {
        if (c.isConditional() && key.contains("race-")) { // checks first, writes later: every racer passes
          Optional<ObjectInfo> now = inner.head(key);
          boolean ok = c.kind() == WriteCondition.Kind.IF_ABSENT ? now.isEmpty()
              : now.isPresent() && now.get().etag().equals(c.etag());
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
  void aComponentIsRefusedOnlyForTheGuaranteesItUsesAndEachIsCheckedOnce() throws Exception {
    InMemoryObjectStore inner = InMemoryObjectStore.create("b");
    ObjectStore moto = new Broken(inner) {
      @Override
      public ObjectInfo completeMultipartUpload(MultipartUpload u, List<UploadedPart> p, WriteCondition c)
          throws IOException {
        return super.completeMultipartUpload(u, p, c.kind() == WriteCondition.Kind.IF_MATCH ? WriteCondition.none() : c);
      }
    };
    StoreGuarantees.require("s3://b on moto", "committer A", EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT), PREFIX,
        () -> moto);
    long after1 = moto.statistics().snapshot().totalRequests();
    StoreGuarantees.require("s3://b on moto", "committer A", EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT), PREFIX,
        () -> moto);
    assertEquals(after1, moto.statistics().snapshot().totalRequests(), "checked once");
    StoreGuaranteeException e = assertThrows(StoreGuaranteeException.class, () -> StoreGuarantees.require(
        "s3://b on moto", "component B", EnumSet.of(StoreGuarantee.IF_MATCH_COMPLETE), PREFIX, () -> moto));
    assertEquals(Set.of(StoreGuarantee.IF_MATCH_COMPLETE), e.failedGuarantees());
    // once refused, a component asking for that guarantee and others is refused without a request
    long after2 = moto.statistics().snapshot().totalRequests();
    assertThrows(StoreGuaranteeException.class, () -> StoreGuarantees.require("s3://b on moto", "component B",
        EnumSet.of(StoreGuarantee.IF_MATCH_COMPLETE, StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE), PREFIX, () -> moto));
    assertEquals(after2, moto.statistics().snapshot().totalRequests(), "no check after a known failure");
    assertTrue(e.getMessage().contains("IF_MATCH_COMPLETE") && e.getMessage().contains("s3://b on moto")
        && e.getMessage().contains("component B") && e.getMessage().contains("docs/stores.md"), e.getMessage());
  }

  @Test
  void theRefusingCheckStopsAtTheFirstFailureBeforeTheRaces() throws Exception {
    InMemoryObjectStore inner = InMemoryObjectStore.create("b");
    ObjectStore ignoresConditions = new Broken(inner) {
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
  void theCompareAndSwapRaceGoesOnFromTheWinnersEtag() throws Exception {
    InMemoryObjectStore store = InMemoryObjectStore.create("b");
    GuaranteeReport r = new GuaranteeCheck(store, PREFIX, 1, 10, 4, 0, true)
        .run(EnumSet.of(StoreGuarantee.ATOMIC_COMPARE_AND_SWAP));
    assertEquals(Set.of(StoreGuarantee.ATOMIC_COMPARE_AND_SWAP), r.held(), r.toString());
    assertEquals(1 + 10 * 4 + 1, r.requests(), "one first PUT, the racing writes, the cleanup");
  }

  @Test
  void emulateIsRefusedForAComponentThatReliesOnCompareAndSwap() throws Exception {
    StoreOptions emulate = new StoreOptions(new RetryPolicy(3, 5, 2, 1, 1), 5 << 20, 5 << 20,
        StoreOptions.ConditionalWritesMode.EMULATE, PREFIX);
    InMemoryObjectStore store = InMemoryObjectStore.create("b");
    EmulationRefusedException e = assertThrows(EmulationRefusedException.class, () -> StoreGuarantees.require(
        emulate, "s3://b at E", "b", "checkpoint-fs (ckpt://)", EnumSet.of(StoreGuarantee.IF_MATCH_PUT,
            StoreGuarantee.ATOMIC_COMPARE_AND_SWAP), () -> store));
    assertEquals("checkpoint-fs (ckpt://)", e.component());
    assertEquals(StoreConstants.CONDITIONAL_WRITES, e.setting());
    assertTrue(e.getMessage().contains("checkpoint-fs (ckpt://)") && e.getMessage().contains("s3://b at E")
        && e.getMessage().contains(StoreConstants.CONDITIONAL_WRITES + "=emulate")
        && e.getMessage().contains("ATOMIC_COMPARE_AND_SWAP"), e.getMessage());
    // a component whose races Spark's commit coordinator keeps apart runs, with the warning; nothing is checked
    StoreGuarantees.require(emulate, "s3://b at E", "b", "the staging committer", EnumSet.of(
        StoreGuarantee.IF_NONE_MATCH_PUT, StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE), () -> store);
    assertEquals(0, store.statistics().snapshot().totalRequests());
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Delegates everything; subclasses break one behaviour. Closing it does not close the inner store. */
  private static class Broken implements ObjectStore {
    private final ObjectStore inner;

    Broken(ObjectStore inner) {
      this.inner = inner;
    }

    @Override
    public String bucket() {
      return inner.bucket();
    }

    @Override
    public ObjectInfo put(String key, Payload payload, WriteCondition condition) throws IOException {
      return inner.put(key, payload, condition);
    }

    @Override
    public StoredBytes getBytes(String key) throws IOException {
      return inner.getBytes(key);
    }

    @Override
    public Optional<StoredBytes> getBytesIfChanged(String key, String etag) throws IOException {
      return inner.getBytesIfChanged(key, etag);
    }

    @Override
    public InputStream open(String key, long start, long end) throws IOException {
      return inner.open(key, start, end);
    }

    @Override
    public Optional<ObjectInfo> head(String key) throws IOException {
      return inner.head(key);
    }

    @Override
    public ListPage list(String prefix, String delimiter, String token, int maxKeys) throws IOException {
      return inner.list(prefix, delimiter, token, maxKeys);
    }

    @Override
    public void delete(String key) throws IOException {
      inner.delete(key);
    }

    @Override
    public int deleteBatch(Collection<String> keys) throws IOException {
      return inner.deleteBatch(keys);
    }

    @Override
    public MultipartUpload initiateMultipartUpload(String key) throws IOException {
      return inner.initiateMultipartUpload(key);
    }

    @Override
    public UploadedPart uploadPart(MultipartUpload upload, int partNumber, Payload part) throws IOException {
      return inner.uploadPart(upload, partNumber, part);
    }

    @Override
    public ObjectInfo completeMultipartUpload(MultipartUpload upload, List<UploadedPart> parts,
        WriteCondition condition) throws IOException {
      return inner.completeMultipartUpload(upload, parts, condition);
    }

    @Override
    public void abortMultipartUpload(MultipartUpload upload) throws IOException {
      inner.abortMultipartUpload(upload);
    }

    @Override
    public List<MultipartUpload> listMultipartUploads(String prefix) throws IOException {
      return inner.listMultipartUploads(prefix);
    }

    @Override
    public StoreCapabilities capabilities() throws IOException {
      return inner.capabilities();
    }

    @Override
    public StoreStatistics statistics() {
      return inner.statistics();
    }

    @Override
    public void close() {
    }
  }
}
