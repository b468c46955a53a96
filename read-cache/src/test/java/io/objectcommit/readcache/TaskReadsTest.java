package io.objectcommit.readcache;

import static io.objectcommit.readcache.CacheFixture.BLOCK;
import static io.objectcommit.readcache.CacheFixture.BUCKET;
import static io.objectcommit.readcache.CacheFixture.bytes;
import static io.objectcommit.readcache.CacheFixture.options;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.objectcommit.readcache.files.ApplicationUsage;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.spark.SparkStandIns;
import io.objectcommit.store.testing.InMemoryObjectStore;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statistics per Spark application and one line per task, on stand-ins of Spark's classes (the module has no
 * Spark): the streams a task opens are summed into its line when Spark completes the task, and the application's
 * counts are written to its record then.
 */
class TaskReadsTest {

  @TempDir
  Path tmp;

  @Test
  void aTaskLogsOneLineForItsStreamsAndItsApplicationCountsThem() throws Exception {
    SparkStandIns spark = SparkStandIns.compile(tmp.resolve("spark")).environment("app-20261126-0007", "3");
    InMemoryObjectStore store = InMemoryObjectStore.create(BUCKET);
    byte[] a = bytes(2 * BLOCK + 10, 1); // 3 blocks
    byte[] b = bytes(BLOCK, 2); // 1 block
    store.put("t/a", Payload.of(a), WriteCondition.none());
    store.put("t/b", Payload.of(b), WriteCondition.none());
    Path dir = tmp.resolve("cache");
    ReadCache cache = ReadCache.open(options(dir, 1L << 30, 0), spark.runtime(), 0);

    assertNull(cache.currentTask(), "no task on the thread");
    spark.task(12, Map.of());
    TaskReads task;
    try {
      task = cache.currentTask();
      assertNotNull(task);
      try (CachingInputStream in = cache.open(store, "t/a")) {
        assertArrayEquals(a, in.readAllBytes()); // 3 GETs
      }
      try (CachingInputStream in = cache.open(store, "t/a")) {
        in.seek(2 * BLOCK);
        assertEquals(10, in.readAllBytes().length); // 1 hit
      }
      CachingInputStream open = cache.open(store, "t/b"); // still open when the task completes, as Spark may leave it
      assertEquals(100, open.read(new byte[100]));
      assertEquals(1, cache.tasksInFlight());
      assertEquals("Read cache: task 12 (stage 7, partition 2, attempt 0) of app-20261126-0007 read "
          + (a.length + 10 + 100) + " bytes in 3 opens of 2 objects: 10 bytes from the cache"
          + " (1 blocks), " + (3 * BLOCK + 10) + " from S3 (4 GETs), requests saved 1; read ahead 0 blocks"
          + " (0 unused)", task.line());
    } finally {
      spark.completeTask();
    }
    assertEquals(0, cache.tasksInFlight(), "the task's reads are forgotten when it completes");

    // The application's counts, written to its record when the task completed (here with no delay between writes).
    CacheUsage usage = ReadCache.usage(cache.options());
    assertEquals(1, usage.records().size(), usage.records().toString());
    ApplicationUsage app = usage.records().get(0);
    assertEquals("app-20261126-0007", app.application);
    assertEquals("name of app-20261126-0007", app.applicationName);
    assertEquals(1, app.hits);
    assertEquals(1, app.requestsSaved);
    assertEquals(4, app.misses);
    assertEquals(3 * BLOCK + 10, app.bytesFromStore);
    assertEquals(10, app.bytesFromCache);
    assertEquals(app.misses, cache.statistics().misses(), "the JVM's counts hold the application's");

    // Another application in the same JVM (a new SparkContext): counted apart, on its own record.
    spark.environment("app-20261126-0008", "driver");
    try (CachingInputStream in = cache.open(store, "t/b")) {
      assertArrayEquals(b, in.readAllBytes()); // 1 hit: fetched for the other application
    }
    assertNull(cache.currentTask(), "a driver thread runs no task");
    cache.writeStatistics();
    CacheUsage both = ReadCache.usage(cache.options());
    assertEquals(2, both.applications().size());
    ApplicationUsage second = both.applications().stream()
        .filter(u -> u.application.equals("app-20261126-0008")).findFirst().orElseThrow();
    assertEquals(1, second.hits);
    assertEquals(0, second.misses);
    assertEquals(2, both.host().orElseThrow().hits);
    assertEquals(4, both.host().orElseThrow().misses);
  }
}
