package io.objectcommit.readcache;

import static io.objectcommit.readcache.CacheFixture.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.readcache.files.ApplicationUsage;
import io.objectcommit.readcache.impl.ApplicationRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The application records of a cache directory ({@link ApplicationRecords}, read by {@link ReadCache#usage}): one
 * file per application and JVM, replaced whole, summed per application and for the host; old ones pruned; the
 * folder kept to its user.
 */
class ApplicationRecordsTest {

  @TempDir
  Path tmp;

  private static ApplicationRecords records(Path dir, String jvm, AtomicReference<String> app) throws Exception {
    return ApplicationRecords.open(dir, ReadCacheConstants.DIR, new ReadCacheStatistics(),
        () -> Optional.ofNullable(app.get()), () -> Optional.of("name of " + app.get()), jvm, 0);
  }

  @Test
  void concurrentWritersNeverShowAPartialRecordAndTheSumsAreExact() throws Exception {
    Path dir = tmp.resolve("cache");
    AtomicReference<String> app = new AtomicReference<>("app-1");
    ApplicationRecords jvm1 = records(dir, "101-1", app);
    ApplicationRecords jvm2 = records(dir, "202-2", app); // another JVM of the same application on the host
    int threads = 4;
    int rounds = 500;
    ExecutorService pool = Executors.newFixedThreadPool(2 * threads + 1);
    AtomicBoolean writing = new AtomicBoolean(true);
    try {
      Future<Integer> reader = pool.submit(() -> {
        int reads = 0;
        long lastHits = 0;
        while (writing.get()) {
          CacheUsage u = ReadCache.usage(options(dir));
          assertEquals(List.of(), u.unreadable(), "a record is never seen part written");
          long hits = u.host().map(h -> h.hits).orElse(0L);
          assertTrue(hits >= lastHits, "counts only grow: " + hits + " after " + lastHits);
          lastHits = hits;
          reads++;
        }
        return reads;
      });
      List<Future<?>> writers = new ArrayList<>();
      for (ApplicationRecords r : List.of(jvm1, jvm2)) {
        for (int t = 0; t < threads; t++) {
          writers.add(pool.submit(() -> {
            for (int i = 0; i < rounds; i++) {
              ReadCacheStatistics s = r.current();
              s.hit(10);
              s.miss(20);
              r.maybeWrite(); // interval 0: every call writes what changed
            }
            r.current().evicted(7);
            return null;
          }));
        }
      }
      for (Future<?> w : writers) {
        w.get(60, TimeUnit.SECONDS);
      }
      jvm1.write();
      jvm2.write();
      writing.set(false);
      assertTrue(reader.get(60, TimeUnit.SECONDS) > 0);
    } finally {
      pool.shutdownNow();
    }
    CacheUsage u = ReadCache.usage(options(dir));
    assertEquals(2, u.records().size(), u.records().toString());
    assertEquals(1, u.applications().size());
    ApplicationUsage a = u.applications().get(0);
    assertEquals("app-1", a.application);
    assertEquals("name of app-1", a.applicationName);
    assertEquals(2, u.jvms("app-1"));
    long perJvm = (long) threads * rounds;
    assertEquals(2 * perJvm, a.hits);
    assertEquals(2 * perJvm, a.requestsSaved);
    assertEquals(2 * perJvm * 10, a.bytesFromCache);
    assertEquals(2 * perJvm, a.misses);
    assertEquals(2 * perJvm * 20, a.bytesFromStore);
    assertEquals(2L * threads, a.evictions);
    assertEquals(2L * threads * 7, a.evictedBytes);
    assertEquals(a.hits, u.host().orElseThrow().hits, "one application: the host's sum is its");
    assertEquals(CacheUsage.HOST, u.host().orElseThrow().application);
    for (Path f : listRecords(dir)) {
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)), f.toString());
    }
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
        dir.resolve(ReadCacheConstants.APPLICATIONS_SUBDIR))));
    assertEquals(List.of(), temporaryFiles(dir), "no temporary file left");
  }

  @Test
  void eachApplicationHasItsRecordAndTheHostTheirSum() throws Exception {
    Path dir = tmp.resolve("cache");
    AtomicReference<String> app = new AtomicReference<>("app-A");
    ApplicationRecords jvm = records(dir, "303-3", app);
    jvm.current().hit(100);
    jvm.current().hit(100);
    assertEquals(List.of(), ReadCache.usage(options(dir)).records(), "nothing written before asked or timed");
    app.set("app-B");
    ReadCacheStatistics b = jvm.current(); // a new application: the others' records are written
    CacheUsage afterSwitch = ReadCache.usage(options(dir));
    assertEquals(2, afterSwitch.records().stream().filter(x -> x.application.equals("app-A")).findFirst()
        .orElseThrow().hits);
    b.miss(300);
    b.checksumFailure();
    jvm.write();
    CacheUsage u = ReadCache.usage(options(dir));
    assertEquals(2, u.applications().size());
    ApplicationUsage a = u.applications().stream().filter(x -> x.application.equals("app-A")).findFirst()
        .orElseThrow();
    ApplicationUsage bb = u.applications().stream().filter(x -> x.application.equals("app-B")).findFirst()
        .orElseThrow();
    assertEquals(2, a.hits);
    assertEquals(200, a.bytesFromCache);
    assertEquals(0, a.misses);
    assertEquals(1, bb.misses);
    assertEquals(300, bb.bytesFromStore);
    assertEquals(1, bb.checksumFailures);
    ApplicationUsage host = u.host().orElseThrow();
    assertEquals(2, host.hits);
    assertEquals(1, host.misses);
    assertEquals(300, host.bytesFromStore);
    assertEquals(1, CacheFixture.files(dir.resolve(ReadCacheConstants.APPLICATIONS_SUBDIR), ".json").stream()
        .filter(f -> f.getFileName().toString().matches("app-A\\.303-3-\\d+\\.json")).count());

    app.set(null); // outside Spark: the JVM is the application
    jvm.current().hit(1);
    jvm.write();
    assertTrue(ReadCache.usage(options(dir)).applications().stream()
        .anyMatch(x -> x.application.equals("jvm-" + ProcessHandle.current().pid())));
  }

  @Test
  void oldRecordsAndRecordsBeyondTheBoundArePruned() throws Exception {
    Path dir = tmp.resolve("cache");
    AtomicReference<String> app = new AtomicReference<>("app-0");
    ApplicationRecords.open(dir, ReadCacheConstants.DIR, new ReadCacheStatistics(), Optional::empty,
        Optional::empty, "1-1", 0);
    Path folder = dir.resolve(ReadCacheConstants.APPLICATIONS_SUBDIR);
    long now = System.currentTimeMillis();
    int fresh = ReadCacheConstants.RECORD_MAX_FILES + 5;
    for (int i = 0; i < fresh; i++) {
      Path f = Files.writeString(folder.resolve(String.format("app-%04d.1-1.json", i)), "{}");
      Files.setLastModifiedTime(f, FileTime.fromMillis(now - 3_600_000 + i * 1000L)); // app-0000 the oldest
    }
    for (int i = 0; i < 3; i++) {
      Path f = Files.writeString(folder.resolve("old-" + i + ".1-1.json"), "{}");
      Files.setLastModifiedTime(f, FileTime.fromMillis(now - ReadCacheConstants.RECORD_MAX_AGE_MS - 1000));
    }
    Path deadTemp = Files.writeString(folder.resolve("app-x.1-1.json.1234.tmp"), "{");
    Files.setLastModifiedTime(deadTemp, FileTime.fromMillis(now - 11 * 60_000));
    Path liveTemp = Files.writeString(folder.resolve("app-y.1-1.json.5678.tmp"), "{");

    assertEquals(3 + 5 + 1, ApplicationRecords.prune(dir, now));
    assertEquals(ReadCacheConstants.RECORD_MAX_FILES, listRecords(dir).size());
    for (int i = 0; i < 5; i++) {
      assertFalse(Files.exists(folder.resolve(String.format("app-%04d.1-1.json", i))), "the least recently updated");
    }
    assertTrue(Files.exists(folder.resolve("app-0005.1-1.json")));
    assertFalse(Files.exists(deadTemp));
    assertTrue(Files.exists(liveTemp), "a write in flight is left alone");

    // Opening the directory prunes (what a JVM's first read through the cache does).
    Files.setLastModifiedTime(folder.resolve("app-0005.1-1.json"),
        FileTime.fromMillis(now - ReadCacheConstants.RECORD_MAX_AGE_MS - 1));
    records(dir, "2-2", app);
    assertFalse(Files.exists(folder.resolve("app-0005.1-1.json")));
    assertEquals(ReadCacheConstants.RECORD_MAX_FILES - 1, listRecords(dir).size());
  }

  @Test
  void anUnreadableRecordIsReportedAndTheOthersCount() throws Exception {
    Path dir = tmp.resolve("cache");
    AtomicReference<String> app = new AtomicReference<>("app-1");
    ApplicationRecords jvm = records(dir, "1-1", app);
    jvm.current().miss(5);
    jvm.write();
    Files.writeString(dir.resolve(ReadCacheConstants.APPLICATIONS_SUBDIR).resolve("bad.1-1.json"), "{\"type\":1}");
    CacheUsage u = ReadCache.usage(options(dir));
    assertEquals(1, u.records().size());
    assertEquals(1, u.unreadable().size(), u.unreadable().toString());
    assertTrue(u.unreadable().get(0).contains("bad.1-1.json"), u.unreadable().toString());
  }

  @Test
  void aRecordsFolderOpenToOthersIsRefusedNamingTheKey() throws Exception {
    Path dir = tmp.resolve("cache");
    records(dir, "1-1", new AtomicReference<>("app-1"));
    Path folder = dir.resolve(ReadCacheConstants.APPLICATIONS_SUBDIR);
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));
    CacheDirectoryException e = assertThrows(CacheDirectoryException.class, () -> ReadCache.usage(options(dir)));
    assertTrue(e.getMessage().contains(ReadCacheConstants.DIR) && e.getMessage().contains(folder.toString()),
        e.getMessage());
    assertThrows(CacheDirectoryException.class, () -> ReadCache.open(options(dir)));
  }

  @Test
  void noDirectoryNoRecords() throws Exception {
    Path dir = tmp.resolve("none");
    CacheUsage u = ReadCache.usage(options(dir));
    assertEquals(List.of(), u.records());
    assertEquals(Optional.empty(), u.host());
    assertFalse(Files.exists(dir), "read only");
  }

  private static List<Path> listRecords(Path dir) {
    return CacheFixture.files(dir.resolve(ReadCacheConstants.APPLICATIONS_SUBDIR), ".json");
  }

  private static List<Path> temporaryFiles(Path dir) {
    return CacheFixture.files(dir.resolve(ReadCacheConstants.APPLICATIONS_SUBDIR), ".tmp");
  }
}
