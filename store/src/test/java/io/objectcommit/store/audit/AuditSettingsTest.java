package io.objectcommit.store.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.config.ConfigReader;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** The switch and filter of the attribution header: ours, else S3A's, per bucket, bad values naming the key. */
class AuditSettingsTest {

  private static AuditSettings read(String... kv) {
    Configuration conf = new Configuration(false);
    for (int i = 0; i < kv.length; i += 2) {
      conf.set(kv[i], kv[i + 1]);
    }
    return AuditSettings.from(new ConfigReader(conf, "lake"));
  }

  @Test
  void onByDefaultWithEveryField() {
    AuditSettings s = read();
    assertTrue(s.enabled());
    assertEquals(Set.of(), s.filter());
  }

  @Test
  void s3asSwitchAndFilterCountWhereOursAreUnset() {
    assertFalse(read("fs.s3a.audit.referrer.enabled", "false").enabled());
    assertFalse(read("fs.s3a.bucket.lake.audit.referrer.enabled", "false").enabled());
    assertTrue(read("fs.s3a.bucket.other.audit.referrer.enabled", "false").enabled());
    assertEquals(Set.of("pr", "p1"), read("fs.s3a.audit.referrer.filter", "pr, p1").filter());
  }

  @Test
  void oursWin() {
    assertTrue(read("fs.s3a.audit.referrer.enabled", "false", "fs.objectcommit.audit.referrer.enabled", "true")
        .enabled());
    assertFalse(read("fs.objectcommit.bucket.lake.audit.referrer.enabled", "false").enabled());
    assertEquals(Set.of("ji"), read("fs.s3a.audit.referrer.filter", "pr",
        "fs.objectcommit.audit.referrer.filter", "ji").filter());
  }

  @Test
  void aBadValueNamesTheKeyInForce() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> read("fs.objectcommit.bucket.lake.audit.referrer.enabled", "yes"));
    assertTrue(e.getMessage().contains("fs.objectcommit.bucket.lake.audit.referrer.enabled"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> read("fs.s3a.audit.referrer.enabled", "off"));
    assertTrue(e.getMessage().contains("fs.s3a.audit.referrer.enabled"), e.getMessage());
  }
}
