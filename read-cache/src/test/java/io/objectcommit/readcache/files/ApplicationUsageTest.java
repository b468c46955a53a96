package io.objectcommit.readcache.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.files.CorruptRecordException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The application record: what is written is read back, and what would mislead is refused naming the file. */
class ApplicationUsageTest {

  static ApplicationUsage usage(String app, long hits, long misses) {
    ApplicationUsage u = new ApplicationUsage();
    u.application = app;
    u.applicationName = "name of " + app;
    u.host = "host-1";
    u.jvm = "4242-1764000000000";
    u.started = 1_764_000_000_000L;
    u.updated = u.started + 5_000;
    u.hits = hits;
    u.requestsSaved = hits;
    u.bytesFromCache = hits * 4096;
    u.misses = misses;
    u.bytesFromStore = misses * 4096;
    u.evictions = 2;
    u.evictedBytes = 8192;
    u.checksumFailures = 1;
    u.writeFailures = 3;
    return u;
  }

  @Test
  void aRecordReadsBackAsWritten() throws Exception {
    ApplicationUsage u = usage("app-20261126-0001", 7, 5);
    byte[] bytes = ApplicationUsage.CODEC.toBytes(u);
    String json = new String(bytes, StandardCharsets.UTF_8);
    assertTrue(json.contains("\"type\" : \"objectcommit/read-cache/application-usage\""), json);
    assertTrue(json.contains("\"version\" : 1"), json);
    ApplicationUsage back = ApplicationUsage.CODEC.fromBytes(bytes, "f.json");
    assertEquals(u.application, back.application);
    assertEquals(u.applicationName, back.applicationName);
    assertEquals(u.host, back.host);
    assertEquals(u.jvm, back.jvm);
    assertEquals(u.started, back.started);
    assertEquals(u.updated, back.updated);
    assertEquals(7, back.hits);
    assertEquals(7, back.requestsSaved);
    assertEquals(7 * 4096, back.bytesFromCache);
    assertEquals(5, back.misses);
    assertEquals(5 * 4096, back.bytesFromStore);
    assertEquals(2, back.evictions);
    assertEquals(8192, back.evictedBytes);
    assertEquals(1, back.checksumFailures);
    assertEquals(3, back.writeFailures);
  }

  @Test
  void sumsAddEveryCounter() {
    ApplicationUsage a = usage("app-1", 7, 5);
    ApplicationUsage b = usage("app-1", 1, 2);
    b.started = a.started - 1;
    b.updated = a.updated + 1;
    ApplicationUsage s = a.plus(b, "app-1");
    assertEquals(8, s.hits);
    assertEquals(8, s.requestsSaved);
    assertEquals(7, s.misses);
    assertEquals(8 * 4096, s.bytesFromCache);
    assertEquals(7 * 4096, s.bytesFromStore);
    assertEquals(4, s.evictions);
    assertEquals(16384, s.evictedBytes);
    assertEquals(2, s.checksumFailures);
    assertEquals(6, s.writeFailures);
    assertEquals(b.started, s.started);
    assertEquals(b.updated, s.updated);
    ApplicationUsage copy = a.plus(null, "x");
    assertEquals(7, copy.hits);
    assertEquals(a.started, copy.started);
  }

  @Test
  void aRecordThatWouldMisleadIsRefusedNamingTheFile() throws Exception {
    ApplicationUsage noApp = usage("", 1, 1);
    assertThrows(IllegalStateException.class, () -> ApplicationUsage.CODEC.toBytes(noApp), "never written");
    String good = new String(ApplicationUsage.CODEC.toBytes(usage("app-1", 3, 1)), StandardCharsets.UTF_8);
    String[][] bad = {
        {good.replace("\"hits\" : 3", "\"hits\" : -3"), "negative"},
        {good.replace("\"requestsSaved\" : 3", "\"requestsSaved\" : 4"), "requests saved 4 but 3 hits"},
        {good.replace("\"host\" : \"host-1\",", ""), "no host"},
        {good.replace("\"updated\" : 1764000005000", "\"updated\" : 1"), "before started"},
        {good.replace("\"version\" : 1", "\"version\" : 2"), "version 2"},
        {good.replace("application-usage", "gzip-index"), "expected a record of type"},
        {good.substring(0, good.length() / 2), "not a valid"},
    };
    for (String[] b : bad) {
      CorruptRecordException e = assertThrows(CorruptRecordException.class,
          () -> ApplicationUsage.CODEC.fromBytes(b[0].getBytes(StandardCharsets.UTF_8), "/cache/applications/f.json"));
      assertTrue(e.getMessage().contains("/cache/applications/f.json") && e.getMessage().contains(b[1]),
          e.getMessage());
    }
  }
}
