package io.objectcommit.delta;

import static io.objectcommit.testsupport.proxy.S3Operation.GET;
import static io.objectcommit.testsupport.proxy.S3Operation.LIST;
import static io.objectcommit.testsupport.proxy.S3Operation.PUT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.delta.storage.CloseableIterator;
import io.objectcommit.store.ForwardingObjectStore;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.ObjectStoreFactory;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.guarantee.ProbeSite;
import io.objectcommit.store.guarantee.StoreGuarantee;
import io.objectcommit.store.guarantee.StoreGuaranteeException;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import io.objectcommit.store.testing.InMemoryStoreFactory;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The log store's contract with Delta (io.delta.storage.LogStore) on the shared in-memory store, opened exactly as in
 * production ({@code ObjectStores.open} through {@link InMemoryStoreFactory}), with exact request counts.
 */
class ConditionalPutLogStoreTest {

  private static final String BUCKET = "delta-logstore-test";
  private static final String LOG = "s3a://" + BUCKET + "/tables/t1/_delta_log/";

  private InMemoryObjectStore bucket;
  private Configuration conf;
  private ConditionalPutLogStore logStore;

  @BeforeEach
  void setUp() {
    bucket = InMemoryObjectStore.register(BUCKET);
    conf = InMemoryStoreFactory.use(new Configuration(false));
    logStore = new ConditionalPutLogStore(conf);
  }

  private static Path version(long v) {
    return new Path(LOG + String.format("%020d.json", v));
  }

  private static Iterator<String> lines(String... lines) {
    return List.of(lines).iterator();
  }

  private String text(String key) {
    return new String(bucket.bytes(key), StandardCharsets.UTF_8);
  }

  @Test
  void aCommitIsOneConditionalPutOfItsLines() throws IOException {
    logStore.write(version(0), lines("{\"protocol\":{}}", "{\"metaData\":{}}"), false, conf); // opens the store
    InMemoryRequestCounts before = bucket.counts();
    logStore.write(version(1), lines("{\"add\":{\"path\":\"a\"}}"), false, conf);
    InMemoryRequestCounts used = bucket.counts().minus(before);
    assertEquals(1, used.total(), used.toString());
    assertEquals(1, used.conditional(PUT), used.toString());
    assertEquals("{\"protocol\":{}}\n{\"metaData\":{}}\n", text("tables/t1/_delta_log/00000000000000000000.json"));
    assertEquals("{\"add\":{\"path\":\"a\"}}\n", text("tables/t1/_delta_log/00000000000000000001.json"));
  }

  @Test
  void aTakenVersionIsRefusedWithJavaNioFileAlreadyExistsAndLeftAsItWas() throws IOException {
    logStore.write(version(0), lines("first"), false, conf);
    ConditionalPutLogStore other = new ConditionalPutLogStore(conf); // another writer, as on another cluster
    InMemoryRequestCounts before = bucket.counts();
    FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class,
        () -> other.write(version(0), lines("second"), false, conf));
    assertEquals(version(0).toString(), e.getFile());
    assertEquals("first\n", text("tables/t1/_delta_log/00000000000000000000.json"));
    InMemoryRequestCounts used = bucket.counts().minus(before);
    assertEquals(1, used.total(), "one refused conditional PUT: " + used);
    assertEquals(1, used.of(PUT, 412), used.toString());
  }

  @Test
  void anOverwriteIsOnePlainPut() throws IOException {
    Path last = new Path(LOG + "_last_checkpoint");
    logStore.write(last, lines("{\"version\":10}"), true, conf);
    InMemoryRequestCounts before = bucket.counts();
    logStore.write(last, lines("{\"version\":20}"), true, conf);
    InMemoryRequestCounts used = bucket.counts().minus(before);
    assertEquals(1, used.of(PUT, 200), used.toString());
    assertEquals(0, used.conditional(PUT), used.toString());
    assertEquals(1, used.total(), used.toString());
    assertEquals("{\"version\":20}\n", text("tables/t1/_delta_log/_last_checkpoint"));
  }

  @Test
  void readGivesTheLinesInOneGetAndAMissingFileIsFileNotFound() throws IOException {
    bucket.put("tables/t1/_delta_log/00000000000000000003.json",
        Payload.of("a\nb\n\nc".getBytes(StandardCharsets.UTF_8)), io.objectcommit.store.WriteCondition.none());
    logStore.write(version(0), lines("x"), false, conf);
    InMemoryRequestCounts before = bucket.counts();
    List<String> read = new ArrayList<>();
    try (CloseableIterator<String> it = logStore.read(version(3), conf)) {
      it.forEachRemaining(read::add);
    }
    assertEquals(List.of("a", "b", "", "c"), read);
    assertEquals(1, bucket.counts().minus(before).of(GET));
    assertThrows(FileNotFoundException.class, () -> logStore.read(version(4), conf));
  }

  @Test
  void listFromIsSortedByNameFromTheGivenName() throws IOException {
    for (long v : new long[] {2, 0, 11, 1, 10}) {
      logStore.write(version(v), lines("v" + v), false, conf);
    }
    logStore.write(new Path(LOG + "00000000000000000010.checkpoint.parquet"), lines("p"), false, conf);
    logStore.write(new Path(LOG + "_commits/00000000000000000012.uuid.json"), lines("c"), false, conf);
    bucket.put("tables/t1/other/00000000000000000005.json", Payload.of(new byte[] {1}),
        io.objectcommit.store.WriteCondition.none());
    InMemoryRequestCounts before = bucket.counts();
    List<String> names = new ArrayList<>();
    List<Boolean> dirs = new ArrayList<>();
    logStore.listFrom(version(2), conf).forEachRemaining(s -> {
      names.add(s.getPath().getName());
      dirs.add(s.isDirectory());
    });
    assertEquals(List.of("00000000000000000002.json", "00000000000000000010.checkpoint.parquet",
        "00000000000000000010.json", "00000000000000000011.json", "_commits"), names);
    assertEquals(List.of(false, false, false, false, true), dirs);
    assertEquals(1, bucket.counts().minus(before).of(LIST), "one page: one LIST");

    FileStatus first = logStore.listFrom(version(0), conf).next();
    assertEquals(new Path(LOG + "00000000000000000000.json"), first.getPath());
    assertEquals(3, first.getLen());
    assertFalse(first.isDirectory());
    assertFalse(logStore.listFrom(new Path(LOG + "_zzz"), conf).hasNext(), "nothing after the last name");
  }

  @Test
  void listFromAMissingDirectoryIsFileNotFound() {
    assertThrows(FileNotFoundException.class,
        () -> logStore.listFrom(new Path("s3a://" + BUCKET + "/no-table/_delta_log/00000000000000000000.json"),
            conf));
  }

  @Test
  void listFromReadsTheLogFromTheGivenNameOnOnePagePerThousandNames() throws IOException {
    for (long v = 0; v < 2_505; v++) {
      bucket.put("tables/t1/_delta_log/" + String.format("%020d.json", v), Payload.of(new byte[] {1}),
          io.objectcommit.store.WriteCondition.none());
    }
    InMemoryRequestCounts before = bucket.counts();
    List<String> names = new ArrayList<>();
    logStore.listFrom(version(2_499), conf).forEachRemaining(s -> names.add(s.getPath().getName()));
    assertEquals(6, names.size(), names.toString());
    assertEquals(String.format("%020d.json", 2_499), names.get(0));
    assertEquals(String.format("%020d.json", 2_504), names.get(5));
    assertEquals(1, bucket.counts().minus(before).of(LIST), "the tail of a 2,505-version log: one page");

    before = bucket.counts();
    List<String> all = new ArrayList<>();
    logStore.listFrom(version(0), conf).forEachRemaining(s -> all.add(s.getPath().getName()));
    assertEquals(2_505, all.size());
    assertEquals(3, bucket.counts().minus(before).of(LIST), "the whole log: a page per 1,000 names");

    before = bucket.counts();
    assertFalse(logStore.listFrom(version(2_505), conf).hasNext(), "nothing new: empty, not FileNotFound");
    assertEquals(2, bucket.counts().minus(before).of(LIST), "the tail, then one key to see the log exists");
  }

  @Test
  void ofWritersRacingForOneVersionExactlyOneWins() throws Exception {
    int writers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        String line = "writer-" + i;
        ConditionalPutLogStore own = new ConditionalPutLogStore(conf);
        Callable<Boolean> commit = () -> {
          start.await();
          try {
            own.write(version(7), lines(line), false, conf);
            return true;
          } catch (FileAlreadyExistsException e) {
            return false;
          }
        };
        results.add(pool.submit(commit));
      }
      start.countDown();
      int won = 0;
      for (Future<Boolean> r : results) {
        won += r.get() ? 1 : 0;
      }
      assertEquals(1, won);
      assertTrue(text("tables/t1/_delta_log/00000000000000000007.json").startsWith("writer-"));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void resolvingAQualifiedPathSendsNothingAndPartialWritesAreInvisible() throws IOException {
    InMemoryRequestCounts before = bucket.counts();
    assertEquals(version(5), logStore.resolvePathOnPhysicalStorage(version(5), conf));
    assertFalse(logStore.isPartialWriteVisible(version(5), conf));
    assertEquals(0, bucket.counts().minus(before).total());
  }

  /** A store whose guarantee check fails: what the store policy answers for a store without atomic creates. */
  public static final class RefusingFactory implements ObjectStoreFactory {
    static volatile Set<StoreGuarantee> asked;
    static volatile ProbeSite site;

    @Override
    public ObjectStore open(String name, Configuration c) throws IOException {
      return new ForwardingObjectStore(InMemoryObjectStore.open(name, c)) {
        @Override
        public void requireGuarantees(Set<StoreGuarantee> needed, String component, ProbeSite where)
            throws IOException {
          asked = needed;
          site = where;
          throw new StoreGuaranteeException(pathOf(where.prefix()), component + " needs what this store lacks",
              Map.of(StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE, "2 of 16 racing creates won"));
        }
      };
    }
  }

  @Test
  void aStoreFailingTheGuaranteeCheckIsRefusedBeforeAnyCommit() {
    Configuration refusing = new Configuration(false);
    refusing.set(StoreConstants.STORE_FACTORY, RefusingFactory.class.getName());
    ConditionalPutLogStore store = new ConditionalPutLogStore(refusing);
    StoreGuaranteeException e = assertThrows(StoreGuaranteeException.class,
        () -> store.write(version(0), lines("x"), false, refusing));
    assertEquals(Set.of(StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE), e.failedGuarantees());
    assertSame(DeltaLogStoreConstants.STORE_GUARANTEES, RefusingFactory.asked);
    assertEquals("tables/t1/.objectcommit/probe/", RefusingFactory.site.prefix());
    assertTrue(e.getMessage().contains("Delta log store"), e.getMessage());
    assertTrue(bucket.keys("").isEmpty(), "nothing written: " + bucket.keys(""));
    assertThrows(StoreGuaranteeException.class, () -> store.listFrom(version(0), refusing), "refused every time");
  }
}
