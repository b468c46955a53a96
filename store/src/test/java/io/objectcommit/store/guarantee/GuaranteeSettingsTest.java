package io.objectcommit.store.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.config.ConfigReader;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** The policy's settings: defaults, per-bucket overrides, a bad mode naming the key and the choices. */
class GuaranteeSettingsTest {

  @Test
  void defaults() {
    GuaranteeSettings s = GuaranteeSettings.from(new ConfigReader(new Configuration(false), "b"));
    assertEquals(GuaranteeSettings.Mode.DETECT, s.mode());
    assertEquals(Optional.empty(), s.probePrefix(), "unset: the check writes where the component writes");
  }

  @Test
  void perBucketOverridesAndAPrefixEndingInASlash() {
    Configuration c = new Configuration(false);
    c.set("fs.objectcommit.conditional-writes", "ASSUME");
    c.set("fs.objectcommit.bucket.special.conditional-writes", "emulate");
    c.set("fs.objectcommit.probe.prefix", "tmp/probe");
    assertEquals(GuaranteeSettings.Mode.ASSUME, GuaranteeSettings.from(new ConfigReader(c, "plain")).mode());
    assertEquals(GuaranteeSettings.Mode.EMULATE, GuaranteeSettings.from(new ConfigReader(c, "special")).mode());
    assertEquals(Optional.of("tmp/probe/"), GuaranteeSettings.from(new ConfigReader(c, "plain")).probePrefix());
  }

  @Test
  void aBadModeFailsNamingTheKeyAndTheChoices() {
    Configuration c = new Configuration(false);
    c.set("fs.objectcommit.bucket.b.conditional-writes", "maybe");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GuaranteeSettings.from(new ConfigReader(c, "b")));
    assertTrue(e.getMessage().contains("fs.objectcommit.bucket.b.conditional-writes")
        && e.getMessage().contains("maybe") && e.getMessage().contains("detect, check, assume, emulate"),
        e.getMessage());
  }

  @Test
  void checkIsAModeAndAProbePrefixIsAKeyPrefix() {
    Configuration c = new Configuration(false);
    c.set("fs.objectcommit.bucket.b.conditional-writes", "check");
    assertEquals(GuaranteeSettings.Mode.CHECK, GuaranteeSettings.from(new ConfigReader(c, "b")).mode());
    c.set("fs.objectcommit.bucket.b.probe.prefix", "/abs/probe/");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GuaranteeSettings.from(new ConfigReader(c, "b")));
    assertTrue(e.getMessage().contains("fs.objectcommit.bucket.b.probe.prefix") && e.getMessage().contains("'/abs"),
        e.getMessage());
  }
}
