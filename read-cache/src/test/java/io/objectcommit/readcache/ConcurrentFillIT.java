package io.objectcommit.readcache;

import static io.objectcommit.readcache.CacheFixture.files;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.ObjectStores;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.audit.AuditContext;
import io.objectcommit.store.config.ConfigReader;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestJvmFlags;
import io.objectcommit.testsupport.proxy.FaultPlan;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read cache shared by JVMs against a real S3 server (LocalStack through the fault proxy, whose latency holds
 * every GET long enough for the JVMs to overlap): two JVMs filling the same blocks of one object at once, and a JVM
 * killed (SIGKILL) while it fills a block. Each reading JVM is a {@link ForkedS3Reader}.
 */
@S3IntegrationTest
class ConcurrentFillIT {

  /** Blocks of 64 KiB: small, so that an object of several blocks is quick to write. */
  private static final int BLOCK = 64 * 1024;
  private static final int BLOCKS = 6;
  private static final int SIZE = (BLOCKS - 1) * BLOCK + 1234;

  @TempDir
  Path tmp;

  private static Map<String, String> cacheSettings(Path dir) {
    return Map.of(ReadCacheConstants.DIR, dir.toString(), ReadCacheConstants.BLOCK_SIZE, Integer.toString(BLOCK));
  }

  private static Configuration conf(S3FaultProxy proxy, Path dir) {
    Configuration conf = new Configuration();
    proxy.endpoint().s3aOptions().forEach(conf::set);
    cacheSettings(dir).forEach(conf::set);
    return conf;
  }

  /** Puts the object (directly, not through the proxy) and returns its bytes. */
  private static byte[] put(S3TestBucket bucket, String key, long seed) throws IOException {
    byte[] data = CacheFixture.bytes(SIZE, seed);
    try (ObjectStore direct = ObjectStores.open(bucket.name(), bucket.hadoopConfiguration())) {
      direct.put(key, Payload.of(data), WriteCondition.none());
    }
    return data;
  }

  private Forked fork(S3FaultProxy proxy, S3TestBucket bucket, String key, long seed, Path dir, Path go)
      throws IOException {
    List<String> cmd = new ArrayList<>(TestJvmFlags.javaCommand(ForkedS3Reader.class));
    cmd.addAll(List.of(bucket.name(), key, Integer.toString(SIZE), Long.toString(seed), go.toString()));
    proxy.endpoint().s3aOptions().forEach((k, v) -> cmd.add(k + "=" + v));
    cacheSettings(dir).forEach((k, v) -> cmd.add(k + "=" + v));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    Forked f = new Forked(p);
    f.awaitLine("READY");
    return f;
  }

  /** Requests of {@code op} for {@code key} the proxy forwarded. */
  private static long count(S3FaultProxy proxy, S3Operation op, String key) {
    return proxy.requests().stream().filter(r -> r.operation() == op && key.equals(r.request().key())).count();
  }

  @Test
  void twoJvmsFillingTheSameBlocksAtOnceBothReadRightAndLeaveOneWholeCopyOfEach(S3TestBucket bucket)
      throws Exception {
    String key = bucket.key("fill/two-jvms.bin");
    long seed = 29;
    byte[] data = put(bucket, key, seed);
    Path dir = tmp.resolve("cache");
    Path go = tmp.resolve("go");
    try (S3FaultProxy proxy = S3FaultProxy.start(bucket.endpoint())) {
      // 300 ms before every request is forwarded: the two JVMs start together and each GET of a block takes long
      // enough that both are after the same missing block at the same time.
      proxy.setFaults(FaultPlan.builder(1).latency(Duration.ofMillis(300), Duration.ZERO).build());
      Forked a = fork(proxy, bucket, key, seed, dir, go);
      Forked b = fork(proxy, bucket, key, seed, dir, go);
      proxy.resetCounts();
      Files.createFile(go);
      String outA = a.awaitExit();
      String outB = b.awaitExit();
      assertEquals(0, a.process.exitValue(), outA);
      assertEquals(0, b.process.exitValue(), outB);
      assertTrue(outA.contains("OK ") && outB.contains("OK "), outA + outB);

      long misses = misses(outA) + misses(outB);
      long hits = hits(outA) + hits(outB);
      long gets = count(proxy, S3Operation.GET, key);
      System.out.println("two JVMs: " + gets + " GETs, misses " + misses + ", hits " + hits + "\n" + outA + outB);
      assertEquals(2, count(proxy, S3Operation.HEAD, key), "one HEAD per open: " + proxy.counts());
      assertEquals(misses, gets, "one GET per block either JVM missed");
      assertEquals(2 * BLOCKS, misses + hits, "each JVM read each block once");
      assertTrue(gets > BLOCKS, "the JVMs raced for at least one block (else this shows nothing): " + gets);

      assertEquals(BLOCKS, files(dir, ".blk").size(), "one file per block, whoever renamed last");
      assertEquals(0, files(dir, ".tmp").size(), "every fill renamed its temporary file");
      proxy.resetCounts();
      ReadCache after = ReadCache.open(ReadCacheOptions.from(new ConfigReader(conf(proxy, dir), bucket.name())));
      try (ObjectStore store = ObjectStores.open(bucket.name(), conf(proxy, dir),
          AuditContext.of(AuditContext.READ_CACHE)); CachingInputStream in = after.open(store, key)) {
        assertArrayEquals(data, in.readAllBytes());
      }
      assertEquals(BLOCKS, after.statistics().hits(), "every block whole: " + after.statistics());
      assertEquals(0, after.statistics().checksumFailures());
      assertEquals(0, count(proxy, S3Operation.GET, key), "nothing fetched again");
    }
  }

  @Test
  void aJvmKilledWhileFillingABlockLeavesNothingThatIsServed(S3TestBucket bucket) throws Exception {
    String key = bucket.key("fill/killed.bin");
    long seed = 31;
    byte[] data = put(bucket, key, seed);
    Path dir = tmp.resolve("cache");
    Path go = tmp.resolve("go");
    try (S3FaultProxy proxy = S3FaultProxy.start(bucket.endpoint())) {
      // Every request waits 2 s in the proxy before it is forwarded: once the victim has read block 1, its fill of
      // block 2 creates its temporary file (with the block's header) and waits that long for the GET's bytes.
      proxy.setFaults(FaultPlan.builder(2).latency(Duration.ofSeconds(2), Duration.ZERO).build());
      Forked victim = fork(proxy, bucket, key, seed, dir, go);
      proxy.resetCounts();
      Files.createFile(go);
      victim.awaitLine("BLOCK 1"); // blocks 0 and 1 are cached (renamed into place before the line is printed)
      Path temp = awaitOne(dir, ".tmp", 10_000);
      assertNotNull(temp, "the victim started filling block 2");
      victim.process.destroyForcibly();
      assertTrue(victim.process.waitFor(30, TimeUnit.SECONDS));
      // The proxy may still forward the dead JVM's GET of block 2 once its latency has passed (nothing reads the
      // answer): let that happen before counting.
      Thread.sleep(3000);
      proxy.setFaults(FaultPlan.none());

      assertEquals(2, files(dir, ".blk").size(), "blocks 0 and 1, written before the kill");
      assertEquals(List.of(temp), files(dir, ".tmp"), "the killed fill's temporary file, never renamed");
      // Even were the dead fill's file at the block's name (a file system that lost the rename's atomicity), its
      // checksum would refuse it: put it there, beside the temporary file.
      Path blockName = temp.resolveSibling(temp.getFileName().toString().replaceFirst("\\..*$", ".blk"));
      Files.copy(temp, blockName);

      long before = count(proxy, S3Operation.GET, key);
      ReadCache later = ReadCache.open(ReadCacheOptions.from(new ConfigReader(conf(proxy, dir), bucket.name())));
      try (ObjectStore store = ObjectStores.open(bucket.name(), conf(proxy, dir),
          AuditContext.of(AuditContext.READ_CACHE)); CachingInputStream in = later.open(store, key)) {
        assertArrayEquals(data, in.readAllBytes(), "a later reader gets the object's bytes");
      }
      assertEquals(2, later.statistics().hits(), "blocks 0 and 1 from the cache: " + later.statistics());
      assertEquals(BLOCKS - 2, later.statistics().misses(), "block 2 on fetched again");
      assertEquals(BLOCKS - 2, count(proxy, S3Operation.GET, key) - before);
      assertEquals(1, later.statistics().checksumFailures(), "the planted copy of the dead fill, refused");

      // The module's rule for a dead fill's temporary file: swept by a scan once older than 10 minutes.
      later.scan();
      assertEquals(List.of(temp), files(dir, ".tmp"), "a young temporary file may be a live fill: kept");
      Files.setLastModifiedTime(temp, FileTime.fromMillis(System.currentTimeMillis() - 11 * 60_000));
      later.scan();
      assertEquals(0, files(dir, ".tmp").size(), "swept");
      assertEquals(BLOCKS, files(dir, ".blk").size());
    }
  }

  private static Path awaitOne(Path dir, String suffix, long timeoutMs) throws InterruptedException {
    long until = System.currentTimeMillis() + timeoutMs;
    while (System.currentTimeMillis() < until) {
      List<Path> f = files(dir, suffix);
      if (!f.isEmpty()) {
        return f.get(0);
      }
      Thread.sleep(10);
    }
    return null;
  }

  private static long misses(String out) {
    return stat(out, ReadCacheStatistics.MISSES);
  }

  private static long hits(String out) {
    return stat(out, ReadCacheStatistics.HITS);
  }

  private static long stat(String out, String name) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(name + "=(\\d+)").matcher(out);
    assertTrue(m.find(), name + " in " + out);
    return Long.parseLong(m.group(1));
  }

  /** A forked reader and its output. */
  private static final class Forked {
    final Process process;
    final BufferedReader out;
    final StringBuilder seen = new StringBuilder();

    Forked(Process process) {
      this.process = process;
      this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    void awaitLine(String expected) throws IOException {
      String line;
      while ((line = out.readLine()) != null) {
        seen.append(line).append('\n');
        if (line.equals(expected)) {
          return;
        }
      }
      throw new AssertionError("the forked reader ended before " + expected + ": " + seen);
    }

    String awaitExit() throws IOException, InterruptedException {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        seen.append(line).append('\n');
      }
      assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the forked reader ends");
      return seen.toString();
    }
  }
}
