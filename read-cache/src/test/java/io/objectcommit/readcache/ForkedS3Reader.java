package io.objectcommit.readcache;

import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.ObjectStores;
import io.objectcommit.store.audit.AuditContext;
import io.objectcommit.store.config.ConfigReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;

/**
 * The other JVMs of {@link ConcurrentFillIT}: reads one object of a real S3 server through the read cache, block
 * by block, as a task would. Arguments: the bucket, the key, the object's size and seed (its bytes are
 * {@link CacheFixture#bytes}), the start file, then {@code key=value} settings (the S3 endpoint, the cache's). It
 * prints READY once set up, waits for the start file, then {@code BLOCK i} after each block it has read (so that the
 * test knows where it is) and {@code OK <statistics>} at the end. Exit 0: every byte right; 2: wrong bytes; 3: a
 * failure.
 */
public final class ForkedS3Reader {

  private ForkedS3Reader() {
  }

  public static void main(String[] args) {
    try {
      String bucket = args[0];
      String key = args[1];
      int size = Integer.parseInt(args[2]);
      byte[] data = CacheFixture.bytes(size, Long.parseLong(args[3]));
      Path go = Paths.get(args[4]);
      Configuration conf = new Configuration();
      for (int i = 5; i < args.length; i++) {
        int eq = args[i].indexOf('=');
        conf.set(args[i].substring(0, eq), args[i].substring(eq + 1));
      }
      ReadCache cache = ReadCache.open(ReadCacheOptions.from(new ConfigReader(conf, bucket)));
      int block = cache.options().blockSize();
      try (ObjectStore store = ObjectStores.open(bucket, conf, AuditContext.of(AuditContext.READ_CACHE))) {
        System.out.println("READY");
        System.out.flush();
        while (!Files.exists(go)) {
          Thread.sleep(5);
        }
        byte[] got = new byte[size];
        try (CachingInputStream in = cache.open(store, key)) {
          for (int at = 0, i = 0; at < size; at += block, i++) {
            int n = Math.min(block, size - at);
            if (in.readNBytes(got, at, n) != n) {
              System.out.println("SHORT READ at " + at);
              System.exit(2);
            }
            System.out.println("BLOCK " + i);
            System.out.flush();
          }
        }
        if (!Arrays.equals(data, got)) {
          System.out.println("WRONG BYTES");
          System.exit(2);
        }
      }
      System.out.println("OK " + cache.statistics());
      System.exit(0);
    } catch (Throwable t) {
      t.printStackTrace(System.out);
      System.exit(3);
    }
  }
}
