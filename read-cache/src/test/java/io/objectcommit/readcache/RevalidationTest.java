package io.objectcommit.readcache;

import static io.objectcommit.readcache.CacheFixture.BLOCK;
import static io.objectcommit.readcache.CacheFixture.BUCKET;
import static io.objectcommit.readcache.CacheFixture.bytes;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_GET;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_HEAD;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.config.ConfigReader;
import io.objectcommit.store.testing.InMemoryObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fs.objectcommit.cache.revalidate-after}: how often an open checks the object's identity with a HEAD. */
class RevalidationTest {

  @TempDir
  Path tmp;

  private InMemoryObjectStore store;

  @BeforeEach
  void setUp() {
    store = InMemoryObjectStore.create(BUCKET);
  }

  private ReadCache cache(String revalidateAfter) throws Exception {
    Configuration conf = new Configuration(false);
    conf.set(ReadCacheConstants.DIR, tmp.resolve("cache").toString());
    conf.set(ReadCacheConstants.BLOCK_SIZE, Integer.toString(BLOCK));
    if (revalidateAfter != null) {
      conf.set(ReadCacheConstants.REVALIDATE_AFTER, revalidateAfter);
    }
    return ReadCache.open(ReadCacheOptions.from(new ConfigReader(conf, BUCKET)));
  }

  private byte[] read(ReadCache cache) throws Exception {
    try (CachingInputStream in = cache.open(store, "t/f")) {
      return in.readAllBytes();
    }
  }

  private long heads() {
    return store.statistics().snapshot().count(OP_HEAD);
  }

  @Test
  void byDefaultEveryOpenChecksAndAReadAfterAnOverwriteSeesTheNewObject() throws Exception {
    ReadCache cache = cache(null);
    assertEquals(0, cache.options().revalidateAfterMs());
    byte[] v1 = bytes(2 * BLOCK, 1);
    store.put("t/f", Payload.of(v1), WriteCondition.none());
    long before = heads();
    assertArrayEquals(v1, read(cache));
    assertArrayEquals(v1, read(cache));
    assertEquals(2, heads() - before, "one HEAD per open");
    byte[] v2 = bytes(2 * BLOCK, 2);
    store.put("t/f", Payload.of(v2), WriteCondition.none());
    assertArrayEquals(v2, read(cache));
  }

  @Test
  void withinTheWindowAnOpenSendsNoRequestAndAReplacedObjectIsReadWholeOrFails() throws Exception {
    ReadCache cache = cache("1h");
    byte[] v1 = bytes(2 * BLOCK, 3);
    store.put("t/f", Payload.of(v1), WriteCondition.none());
    assertArrayEquals(v1, read(cache));
    long headsBefore = heads();
    long getsBefore = store.statistics().snapshot().count(OP_GET);
    assertArrayEquals(v1, read(cache));
    assertEquals(0, heads() - headsBefore, "trusted for an hour: no HEAD");
    assertEquals(0, store.statistics().snapshot().count(OP_GET) - getsBefore, "and every block cached");

    // The documented consequence: replaced within the window, the old object is still read, whole.
    byte[] v2 = bytes(2 * BLOCK, 4);
    store.put("t/f", Payload.of(v2), WriteCondition.none());
    assertArrayEquals(v1, read(cache), "the old identity's cached blocks: stale but whole");

    // A block not cached under the trusted identity is fetched with If-Match: refused, never mixed; and the
    // identity is forgotten, so the next open checks again.
    for (Path f : CacheFixture.files(tmp.resolve("cache"), ".blk")) {
      Files.delete(f);
    }
    try (CachingInputStream in = cache.open(store, "t/f")) {
      ObjectChangedException refused = assertThrows(ObjectChangedException.class, () -> in.readNBytes(BLOCK));
      assertTrue(refused.getMessage().contains("t/f"), refused.getMessage());
    }
    long before = heads();
    assertArrayEquals(v2, read(cache));
    assertEquals(1, heads() - before, "after the refusal the identity is checked again");
  }

  @Test
  void theWindowEnds() throws Exception {
    ReadCache cache = cache("50ms");
    store.put("t/f", Payload.of(bytes(BLOCK, 8)), WriteCondition.none());
    read(cache);
    Thread.sleep(200);
    long before = heads();
    read(cache);
    assertEquals(1, heads() - before, "checked again once the window has passed");
  }
}
