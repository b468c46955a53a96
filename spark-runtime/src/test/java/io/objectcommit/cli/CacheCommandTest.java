package io.objectcommit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.readcache.files.ApplicationUsage;
import io.objectcommit.testsupport.TestTags;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code objectcommit cache stats|clear} on a cache directory laid out as the read cache lays it out (block files
 * under {@code blocks/<2 hex>/}); what the read cache itself does is tested in read-cache (CacheContentsTest).
 */
@Tag(TestTags.COMMAND)
class CacheCommandTest {

  @TempDir
  Path tmp;

  private Path plant(Path dir, String name, int size, Instant mtime) throws Exception {
    Path sub = dir.resolve("blocks").resolve(name.substring(0, 2));
    for (Path d : new Path[] {dir, dir.resolve("blocks"), sub}) {
      if (!Files.exists(d)) {
        Files.createDirectory(d, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
    }
    Path f = Files.write(sub.resolve(name), new byte[size]);
    Files.setLastModifiedTime(f, FileTime.from(mtime));
    return f;
  }

  @Test
  void statsPrintsWhatIsOnDiskAndClearDeletesEveryBlock() throws Exception {
    Path dir = tmp.resolve("cache");
    String dirSetting = "-Dfs.objectcommit.cache.dir=" + dir;
    CommandRun none = CommandRun.of("cache", "stats", dirSetting);
    assertEquals(0, none.code, none.err);
    assertEquals("No read cache at " + dir + " (fs.objectcommit.cache.dir): nothing cached on this host yet\n",
        none.out);
    assertFalse(Files.exists(dir), "stats creates nothing");

    Instant old = Instant.parse("2026-01-01T00:00:00Z");
    Instant recent = Instant.parse("2026-01-02T03:04:05Z");
    Path a = plant(dir, "aa01.blk", 100, old);
    Path b = plant(dir, "bb02.blk", 2000, recent);
    Path temp = plant(dir, "bb03.blk.1234.tmp", 7, Instant.now());

    CommandRun stats = CommandRun.of("cache", "stats", dirSetting, "-Dfs.objectcommit.cache.max-size=1M",
        "-Dfs.objectcommit.cache.block-size=4K");
    assertEquals(0, stats.code, stats.err);
    assertTrue(stats.out.startsWith("Read cache " + dir + " (fs.objectcommit.cache.dir)\n"), stats.out);
    assertTrue(stats.out.contains("\nblocks             2\n"), stats.out);
    assertTrue(stats.out.contains("\nbytes              2100 bytes (2.1 KiB), 0.2% of the bound\n"), stats.out);
    assertTrue(stats.out.contains("\nbound              1048576 bytes (1.0 MiB) (fs.objectcommit.cache.max-size)\n"),
        stats.out);
    assertTrue(stats.out.contains("\nblock size         4096 bytes (4.0 KiB) (fs.objectcommit.cache.block-size)\n"),
        stats.out);
    assertTrue(stats.out.contains("\noldest block       last used ") && stats.out.contains(" ago (" + old + ")\n"),
        stats.out);
    assertTrue(stats.out.contains(" ago (" + recent + ")\n"), stats.out);
    assertTrue(stats.out.contains("\ntemporary files    1, 7 bytes"), stats.out);
    assertTrue(stats.out.endsWith("\nApplications: no record yet (a JVM writes its record every 5 s while it reads,"
        + " and when it ends)\n"), stats.out);

    CommandRun clear = CommandRun.of("cache", "clear", dirSetting);
    assertEquals(0, clear.code, clear.err);
    assertEquals("Cleared the read cache at " + dir + ": deleted 2 block(s), 2100 bytes (2.1 KiB), and 0 temporary"
        + " file(s) of dead fills\nSince then: 0 block(s) filled by running applications, 1 fill(s) in flight\n",
        clear.out);
    assertFalse(Files.exists(a));
    assertFalse(Files.exists(b));
    assertTrue(Files.exists(temp), "a fill in flight is left to finish");
  }

  private static void record(Path dir, String app, String jvm, long hits, long misses, long evictions)
      throws Exception {
    Path folder = dir.resolve("applications");
    if (!Files.exists(folder)) {
      Files.createDirectory(folder, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    ApplicationUsage u = new ApplicationUsage();
    u.application = app;
    u.applicationName = "name of " + app;
    u.host = "host-1";
    u.jvm = jvm;
    u.started = Instant.now().minusSeconds(600).toEpochMilli();
    u.updated = Instant.now().minusSeconds(60).toEpochMilli();
    u.hits = hits;
    u.requestsSaved = hits;
    u.bytesFromCache = hits * 4096;
    u.misses = misses;
    u.bytesFromStore = misses * 4096;
    u.evictions = evictions;
    u.evictedBytes = evictions * 4096;
    Files.write(folder.resolve(app + "." + jvm + ".json"), ApplicationUsage.CODEC.toBytes(u));
  }

  @Test
  void statsPrintsEachApplicationSummedOverItsJvmsAndTheHostsTotal() throws Exception {
    Path dir = tmp.resolve("cache");
    plant(dir, "aa01.blk", 100, Instant.now());
    String dirSetting = "-Dfs.objectcommit.cache.dir=" + dir;
    CommandRun none = CommandRun.of("cache", "stats", dirSetting);
    assertTrue(none.out.endsWith("Applications: no record yet (a JVM writes its record every 5 s while it reads, and"
        + " when it ends)\n"), none.out);

    record(dir, "app-1", "11-1", 3, 4, 0); // the driver and an executor of one application
    record(dir, "app-1", "12-1", 2, 1, 1);
    record(dir, "app-2", "13-1", 10, 0, 0);
    Files.writeString(dir.resolve("applications").resolve("broken.14-1.json"), "{");
    CommandRun stats = CommandRun.of("cache", "stats", dirSetting);
    assertEquals(0, stats.code, stats.err);
    String tail = stats.out.substring(stats.out.indexOf("Applications")).replaceAll("updated 1m \\d+s ago",
        "updated 1m ago");
    assertEquals("Applications (2, from 3 record(s) in " + dir.resolve("applications") + ", one per application and"
        + " JVM):\n"
        + "  app-1 (name of app-1): 2 JVMs, updated 1m ago\n"
        + "    from the cache 5 block(s), 20480 bytes (20.0 KiB); from S3 5 GET(s), 20480 bytes (20.0 KiB); requests"
        + " saved 5; evicted 1 block(s), 4096 bytes (4.0 KiB)\n"
        + "  app-2 (name of app-2): 1 JVM, updated 1m ago\n"
        + "    from the cache 10 block(s), 40960 bytes (40.0 KiB); from S3 0 GET(s), 0 bytes; requests saved 10;"
        + " evicted 0 block(s), 0 bytes\n"
        + "  host host-1, every application:\n"
        + "    from the cache 15 block(s), 61440 bytes (60.0 KiB); from S3 5 GET(s), 20480 bytes (20.0 KiB); requests"
        + " saved 15; evicted 1 block(s), 4096 bytes (4.0 KiB)\n", tail.substring(0, tail.indexOf("  not a record")));
    assertTrue(tail.contains("  not a record, skipped: ") && tail.contains("broken.14-1.json"), tail);

    CommandRun clear = CommandRun.of("cache", "clear", dirSetting);
    assertEquals(0, clear.code, clear.err);
    try (Stream<Path> records = Files.list(dir.resolve("applications"))) {
      assertEquals(4, records.count(), "clear keeps the records");
    }
  }

  @Test
  void theBucketChoosesItsPerBucketSettings() throws Exception {
    Path general = tmp.resolve("general");
    Path mine = tmp.resolve("mine");
    plant(mine, "cc01.blk", 10, Instant.now());
    String[] settings = {"-Dfs.objectcommit.cache.dir=" + general, "-D",
        "fs.objectcommit.bucket.mybucket.cache.dir=" + mine};
    CommandRun perBucket = CommandRun.of("cache", "stats", "s3a://mybucket", settings[0], settings[1], settings[2]);
    assertEquals(0, perBucket.code, perBucket.err);
    assertTrue(perBucket.out.startsWith("Read cache " + mine + " (fs.objectcommit.bucket.mybucket.cache.dir)\n"),
        perBucket.out);
    CommandRun other = CommandRun.of("cache", "stats", "s3a://other", settings[0], settings[1], settings[2]);
    assertTrue(other.out.startsWith("No read cache at " + general), other.out);
  }

  @Test
  void usageErrorsAndARefusedDirectory() throws Exception {
    assertEquals(2, CommandRun.of("cache").code);
    CommandRun unknown = CommandRun.of("cache", "purge");
    assertEquals(2, unknown.code);
    assertTrue(unknown.err.contains("unknown action 'purge': expected stats or clear"), unknown.err);
    assertEquals(2, CommandRun.of("cache", "stats", "gs://b").code);
    assertEquals(2, CommandRun.of("cache", "stats", "s3a://b", "extra").code);
    CommandRun bad = CommandRun.of("cache", "stats", "-Dfs.objectcommit.cache.max-size=lots");
    assertEquals(2, bad.code);
    assertTrue(bad.err.contains("fs.objectcommit.cache.max-size"), bad.err);

    Path open = tmp.resolve("open");
    Path block = plant(open, "dd01.blk", 10, Instant.now());
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxr-x"));
    CommandRun refused = CommandRun.of("cache", "clear", "-Dfs.objectcommit.cache.dir=" + open);
    assertEquals(1, refused.code);
    assertTrue(refused.err.contains(open.toString()) && refused.err.contains("fs.objectcommit.cache.dir"),
        refused.err);
    assertTrue(Files.exists(block), "nothing deleted in a directory other users may use");
  }
}
