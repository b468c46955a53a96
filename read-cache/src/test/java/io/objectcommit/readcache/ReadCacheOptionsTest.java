package io.objectcommit.readcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.config.ConfigReader;
import java.nio.file.Paths;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class ReadCacheOptionsTest {

  private static ReadCacheOptions parse(String... keyValues) {
    Configuration conf = new Configuration(false);
    for (int i = 0; i < keyValues.length; i += 2) {
      conf.set(keyValues[i], keyValues[i + 1]);
    }
    return ReadCacheOptions.from(new ConfigReader(conf, "b1-bucket"));
  }

  @Test
  void defaultsAreTheDocumentedOnes() {
    ReadCacheOptions o = parse();
    assertEquals(4 * 1024 * 1024, o.blockSize());
    assertEquals(10L * 1024 * 1024 * 1024, o.maxSize());
    assertEquals(Paths.get(System.getProperty("java.io.tmpdir"), "objectcommit-cache-"
        + System.getProperty("user.name")).toAbsolutePath(), o.dir());
    assertEquals(ReadCacheConstants.DIR, o.dirKey());
    assertEquals(0, o.revalidateAfterMs(), "every open checks the identity");
    assertEquals(300_000, parse(ReadCacheConstants.REVALIDATE_AFTER, "5m").revalidateAfterMs());
    assertEquals(4, o.readAhead(), "blocks fetched at once beyond the one read");
    assertEquals(0, parse(ReadCacheConstants.READ_AHEAD, "0").readAhead());
  }

  @Test
  void sizesTakeUnitsAndPerBucketFormsWin() {
    ReadCacheOptions o = parse(ReadCacheConstants.BLOCK_SIZE, "1M", ReadCacheConstants.MAX_SIZE, "2G",
        ReadCacheConstants.DIR, "/var/cache/oc", "fs.objectcommit.bucket.b1-bucket.cache.dir", "/data/oc");
    assertEquals(1024 * 1024, o.blockSize());
    assertEquals(2L * 1024 * 1024 * 1024, o.maxSize());
    assertEquals(Paths.get("/data/oc"), o.dir());
    assertEquals("fs.objectcommit.bucket.b1-bucket.cache.dir", o.dirKey());
  }

  @Test
  void badValuesFailNamingTheKey() {
    for (String[] bad : new String[][] {{ReadCacheConstants.BLOCK_SIZE, "lots"}, {ReadCacheConstants.BLOCK_SIZE,
        "1K"}, {ReadCacheConstants.BLOCK_SIZE, "128M"}, {ReadCacheConstants.MAX_SIZE, "1K"},
        {ReadCacheConstants.MAX_SIZE, "-5"}, {ReadCacheConstants.DIR, "bad\0path"},
        {ReadCacheConstants.REVALIDATE_AFTER, "soon"}, {ReadCacheConstants.REVALIDATE_AFTER, "-1s"},
        {ReadCacheConstants.READ_AHEAD, "-1"}, {ReadCacheConstants.READ_AHEAD, "65"},
        {ReadCacheConstants.READ_AHEAD, "many"}}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(bad[0], bad[1]),
          bad[0] + "=" + bad[1]);
      assertTrue(e.getMessage().contains(bad[0]), e.getMessage());
    }
  }
}
