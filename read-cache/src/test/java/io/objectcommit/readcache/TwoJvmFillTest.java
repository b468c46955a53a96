package io.objectcommit.readcache;

import static io.objectcommit.readcache.CacheFixture.BLOCK;
import static io.objectcommit.readcache.CacheFixture.BUCKET;
import static io.objectcommit.readcache.CacheFixture.files;
import static io.objectcommit.readcache.CacheFixture.options;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_GET;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.testsupport.TestJvmFlags;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two other JVMs and this one fill, evict and read the same blocks of one directory at once. */
class TwoJvmFillTest {

  @TempDir
  Path tmp;

  @Test
  void threeJvmsFillingAndEvictingTheSameBlocksAlwaysReadTheRightBytes() throws Exception {
    Path dir = tmp.resolve("cache");
    int size = 12 * BLOCK + 77;
    long seed = 42;
    byte[] data = CacheFixture.bytes(size, seed);
    ReadCache.open(options(dir)); // create the directory before the others race for it
    Path go = tmp.resolve("go");
    List<Process> forked = new ArrayList<>();
    List<BufferedReader> outputs = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      List<String> cmd = new ArrayList<>(TestJvmFlags.javaCommand(ForkedReader.class));
      cmd.addAll(List.of(dir.toString(), Integer.toString(size), Long.toString(seed), "1000", go.toString()));
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      forked.add(p);
      outputs.add(new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
    }
    for (BufferedReader out : outputs) { // both set up (JVM start, class loading): now they race
      String line;
      StringBuilder seen = new StringBuilder();
      while ((line = out.readLine()) != null && !line.equals("READY")) {
        seen.append(line).append('\n');
      }
      assertEquals("READY", line, "the forked reader starts: " + seen);
    }
    // from now on each reader's output is read as it comes: a reader blocked on a full pipe (its log line per read)
    // would never end
    List<CompletableFuture<String>> drained = new ArrayList<>();
    for (BufferedReader out : outputs) {
      drained.add(CompletableFuture.supplyAsync(() -> output(out)));
    }
    InMemoryObjectStore store = InMemoryObjectStore.create(BUCKET);
    store.put("t/shared", Payload.of(data), WriteCondition.none());
    ReadCache mine = ReadCache.open(options(dir));
    Files.createFile(go);
    long until = System.currentTimeMillis() + 1000;
    int reads = 0;
    while (System.currentTimeMillis() < until || reads < ForkedReader.MIN_READS) {
      try (CachingInputStream in = mine.open(store, "t/shared")) {
        assertArrayEquals(data, in.readAllBytes(), "read " + reads + " of this JVM");
      }
      reads++;
    }
    System.out.println("this JVM: " + reads + " reads " + mine.statistics());
    List<long[]> forkedCounts = new ArrayList<>();
    for (int i = 0; i < forked.size(); i++) {
      Process p = forked.get(i);
      boolean ended = p.waitFor(60, TimeUnit.SECONDS);
      if (!ended) {
        p.destroyForcibly();
      }
      String out = drained.get(i).get(10, TimeUnit.SECONDS);
      assertTrue(ended, "the forked reader ends; its output: " + out);
      System.out.println("forked reader: " + out.trim());
      assertEquals(0, p.exitValue(), out);
      Matcher ok = Pattern.compile("OK (\\d+) reads").matcher(out);
      assertTrue(ok.find(), out);
      assertTrue(Integer.parseInt(ok.group(1)) >= ForkedReader.MIN_READS, "the forked reader raced: " + out);
      Matcher counts = Pattern.compile("cache_hits=(\\d+), cache_misses=(\\d+)").matcher(out);
      assertTrue(counts.find(), out);
      forkedCounts.add(new long[] {Long.parseLong(counts.group(1)), Long.parseLong(counts.group(2))});
    }
    // Each JVM's record (outside Spark a JVM is its own application), as that JVM counted.
    mine.writeStatistics();
    CacheUsage usage = ReadCache.usage(options(dir));
    assertEquals(3, usage.applications().size(), usage.records().toString());
    long hits = mine.statistics().hits();
    long misses = mine.statistics().misses();
    for (long[] c : forkedCounts) {
      assertEquals(1, usage.applications().stream().filter(u -> u.hits == c[0] && u.misses == c[1]).count(),
          "a record with the forked reader's counts " + c[0] + "/" + c[1] + ": " + usage.records());
      hits += c[0];
      misses += c[1];
    }
    assertEquals(hits, usage.host().orElseThrow().hits, "the host's sum: " + usage.records());
    assertEquals(misses, usage.host().orElseThrow().misses, "the host's sum: " + usage.records());
    assertEquals(0, files(dir, ".tmp").size(), "no fill left a temporary file");
    assertEquals(13, files(dir, ".blk").size(), "every reader refilled what it deleted");
    ReadCache after = ReadCache.open(options(dir));
    InMemoryObjectStore counted = store.newStore(new Configuration(false));
    try (CachingInputStream in = after.open(counted, "t/shared")) {
      assertArrayEquals(data, in.readAllBytes());
    }
    assertEquals(0, after.statistics().checksumFailures(), "every block left behind is whole");
    assertEquals(0, counted.statistics().snapshot().count(OP_GET), "and served from the directory");
  }

  private static String output(BufferedReader out) {
    StringBuilder s = new StringBuilder();
    try {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        s.append(line).append('\n');
      }
    } catch (IOException e) {
      s.append("(output unreadable: ").append(e).append(")\n");
    }
    return s.toString();
  }
}
