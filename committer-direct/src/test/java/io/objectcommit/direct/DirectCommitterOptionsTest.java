package io.objectcommit.direct;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.StoreConstants;
import java.nio.file.Paths;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** The direct committer's options go through the one configuration API: per-bucket overrides, keys in errors. */
class DirectCommitterOptionsTest {

  @Test
  void defaults() {
    DirectCommitterOptions o = DirectCommitterOptions.from(new Configuration(false), "b");
    assertEquals(DirectCommitterOptions.OnSpeculation.FAIL, o.onSpeculation());
    assertEquals(DirectCommitterConstants.SUCCESS_MAX_FILENAMES_DEFAULT, o.successMaxFilenames());
    assertEquals(StoreConstants.CAS_ATTEMPTS_DEFAULT, o.casAttempts());
    assertEquals(Paths.get(System.getProperty("java.io.tmpdir")), o.bufferDir());
  }

  @Test
  void everyKeyCanBeSetPerBucket() {
    Configuration conf = new Configuration(false);
    conf.set("fs.objectcommit.bucket.special.direct.on-speculation", "CLASSIC");
    conf.set("fs.objectcommit.bucket.special.direct.success.max-filenames", "5");
    conf.set("fs.objectcommit.bucket.special.direct.buffer.dir", "/mnt/buffer");
    conf.set("fs.objectcommit.bucket.special.cas-attempts", "3");
    DirectCommitterOptions special = DirectCommitterOptions.from(conf, "special");
    assertEquals(DirectCommitterOptions.OnSpeculation.CLASSIC, special.onSpeculation());
    assertEquals(5, special.successMaxFilenames());
    assertEquals(Paths.get("/mnt/buffer"), special.bufferDir());
    assertEquals(3, special.casAttempts());
    DirectCommitterOptions other = DirectCommitterOptions.from(conf, "other");
    assertEquals(DirectCommitterOptions.OnSpeculation.FAIL, other.onSpeculation());
    assertEquals(StoreConstants.CAS_ATTEMPTS_DEFAULT, other.casAttempts());
  }

  @Test
  void aBadPerBucketValueNamesThePerBucketKey() {
    Configuration conf = new Configuration(false);
    conf.set("fs.objectcommit.bucket.b.direct.on-speculation", "ignore");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DirectCommitterOptions.from(conf, "b"));
    assertTrue(e.getMessage().contains("fs.objectcommit.bucket.b.direct.on-speculation"), e.getMessage());
    conf.unset("fs.objectcommit.bucket.b.direct.on-speculation");
    conf.set(StoreConstants.CAS_ATTEMPTS, "many");
    e = assertThrows(IllegalArgumentException.class, () -> DirectCommitterOptions.from(conf, "b"));
    assertTrue(e.getMessage().contains(StoreConstants.CAS_ATTEMPTS), e.getMessage());
  }
}
