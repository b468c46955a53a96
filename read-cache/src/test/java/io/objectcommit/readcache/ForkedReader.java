package io.objectcommit.readcache;

import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.testing.InMemoryObjectStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The other JVM of {@link TwoJvmFillTest}: reads one object through the cache directory over and over for a
 * while, deleting a random block file before each read (as another JVM's eviction would), and checks every byte.
 * Its store is an in-memory bucket of its own holding the same bytes (same seed), so the identity (ETag = MD5) is
 * the same in every JVM. It prints READY once set up, waits for the start file {@code args[4]} (so that every
 * JVM races from the same moment), then reads for {@code args[3]} ms and at least {@link #MIN_READS} times. Exit 0: every read was right; 2: wrong
 * bytes; 3: a failure.
 */
public final class ForkedReader {

  /** Reads each JVM makes at least, however slow the machine: with the shared start, they overlap. */
  static final int MIN_READS = 20;

  private ForkedReader() {
  }

  public static void main(String[] args) {
    try {
      Path dir = Paths.get(args[0]);
      int size = Integer.parseInt(args[1]);
      long seed = Long.parseLong(args[2]);
      Path go = Paths.get(args[4]);
      byte[] data = CacheFixture.bytes(size, seed);
      InMemoryObjectStore store = InMemoryObjectStore.create(CacheFixture.BUCKET);
      store.put("t/shared", Payload.of(data), WriteCondition.none());
      ReadCache cache = ReadCache.open(CacheFixture.options(dir));
      Random random = new Random();
      try (CachingInputStream in = cache.open(store, "t/shared")) { // classes loaded before the race starts
        if (!Arrays.equals(data, in.readAllBytes())) {
          System.out.println("WRONG BYTES in the first read");
          System.exit(2);
        }
      }
      System.out.println("READY");
      System.out.flush();
      while (!Files.exists(go)) {
        Thread.sleep(5);
      }
      long until = System.currentTimeMillis() + Long.parseLong(args[3]);
      int reads = 0;
      do {
        List<Path> blocks = CacheFixture.files(dir, ".blk");
        if (!blocks.isEmpty()) {
          try {
            Files.delete(blocks.get(random.nextInt(blocks.size())));
          } catch (NoSuchFileException raced) {
            // deleted by the other JVM first
          }
        }
        try (CachingInputStream in = cache.open(store, "t/shared")) {
          if (!Arrays.equals(data, in.readAllBytes())) {
            System.out.println("WRONG BYTES after " + reads + " reads");
            System.exit(2);
          }
        }
        reads++;
      } while (System.currentTimeMillis() < until || reads < MIN_READS);
      cache.writeStatistics(); // its record: this JVM (jvm-<pid>, no Spark) is its own application
      System.out.println("OK " + reads + " reads " + cache.statistics());
      System.exit(0);
    } catch (Throwable t) {
      t.printStackTrace(System.out);
      System.exit(3);
    }
  }
}
