package io.objectcommit.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.guarantee.GuaranteeSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * A store's configuration is parsed once, into one immutable {@link StoreConfig}, and opening the store from it reads
 * the Hadoop configuration no more; bad values of every part fail while parsing, naming the key in force.
 */
class StoreConfigTest {

  /** A configuration that records (and fails) every read once frozen: what reads it after parsing. */
  static final class FreezableConfiguration extends Configuration {
    private volatile boolean frozen;
    final List<String> readsAfterFreeze = new ArrayList<>();

    FreezableConfiguration() {
      super(false);
    }

    void freeze() {
      frozen = true;
    }

    private void check(String name) {
      if (frozen) {
        synchronized (readsAfterFreeze) {
          readsAfterFreeze.add(name);
        }
        throw new AssertionError("the configuration was read after parsing: " + name);
      }
    }

    @Override
    public String get(String name) {
      check(name);
      return super.get(name);
    }

    @Override
    public String get(String name, String defaultValue) {
      check(name);
      return super.get(name, defaultValue);
    }

    @Override
    public String getRaw(String name) {
      check(name);
      return super.getRaw(name);
    }

    @Override
    public char[] getPassword(String name) throws IOException {
      check(name);
      return super.getPassword(name);
    }
  }

  static Configuration offline(Configuration conf) {
    conf.set("fs.s3a.endpoint", "http://127.0.0.1:1");
    conf.set("fs.s3a.endpoint.region", "us-east-1");
    conf.set("fs.s3a.access.key", "AKIATESTONLY");
    conf.set("fs.s3a.secret.key", "not-a-secret");
    conf.set("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    return conf;
  }

  @Test
  void openingAStoreFromItsConfigurationReadsTheHadoopConfigurationNoMore() throws Exception {
    FreezableConfiguration conf = new FreezableConfiguration();
    offline(conf).set("fs.objectcommit.conditional-writes", "assume");
    StoreConfig config = StoreConfig.from(conf, "frozen-bucket");
    conf.freeze();
    try (ObjectStore store = new StoreContext().open(config)) {
      assertEquals("frozen-bucket", store.bucket());
      assertEquals(StoreCapabilities.ConditionalWrites.ASSUMED, store.capabilities().conditionalWrites());
    }
    assertEquals(List.of(), conf.readsAfterFreeze);
  }

  @Test
  void everyPartComesFromTheOneParseWithPerBucketOverrides() throws Exception {
    Configuration conf = offline(new Configuration(false));
    conf.set("fs.s3a.bucket.special.endpoint", "http://127.0.0.1:2");
    conf.set("fs.s3a.bucket.special.multipart.size", "16M");
    conf.set("fs.objectcommit.bucket.special.sdk", "v2");
    conf.set("fs.objectcommit.sdk", "v1");
    conf.set("fs.objectcommit.bucket.special.conditional-writes", "assume");
    conf.set("fs.objectcommit.bucket.special.audit.referrer.enabled", "false");
    conf.set("fs.objectcommit.bucket.special.conditional-writes.share-verdict", "false");
    StoreConfig plain = StoreConfig.from(conf, "plain");
    StoreConfig special = StoreConfig.from(conf, "special");
    assertEquals("http://127.0.0.1:1", plain.client().endpointUrl());
    assertEquals("http://127.0.0.1:2", special.client().endpointUrl());
    assertEquals(StoreConstants.MULTIPART_SIZE_DEFAULT, plain.options().multipartSize());
    assertEquals(16L << 20, special.options().multipartSize());
    assertEquals("v1", plain.sdk().name());
    assertEquals("v2", special.sdk().name());
    assertEquals(GuaranteeSettings.Mode.DETECT, plain.guarantees().mode());
    assertEquals(GuaranteeSettings.Mode.ASSUME, special.guarantees().mode());
    assertTrue(plain.audit().enabled());
    assertEquals(false, special.audit().enabled());
    assertTrue(plain.sharing().enabled());
    assertEquals(false, special.sharing().enabled());
    assertEquals("special", special.bucket());
    assertTrue(special.where().contains("http://127.0.0.1:2"), special.where());
  }

  @Test
  void aBadValueOfAnyPartFailsWhileParsingNamingTheKey() {
    assertBad("fs.s3a.endpoint", "ftp://x", "fs.s3a.endpoint");
    assertBad("fs.s3a.bucket.b.connection.maximum", "lots", "fs.s3a.bucket.b.connection.maximum");
    assertBad("fs.objectcommit.retry.limit", "-1", "fs.objectcommit.retry.limit");
    assertBad("fs.s3a.multipart.size", "1M", "fs.s3a.multipart.size");
    assertBad("fs.objectcommit.conditional-writes", "maybe", "fs.objectcommit.conditional-writes");
    assertBad("fs.objectcommit.sdk", "v3", "fs.objectcommit.sdk");
    assertBad("fs.objectcommit.audit.referrer.enabled", "maybe", "fs.objectcommit.audit.referrer.enabled");
    assertBad("fs.s3a.audit.referrer.enabled", "maybe", "fs.s3a.audit.referrer.enabled");
    assertBad("fs.objectcommit.conditional-writes.share-verdict", "maybe",
        "fs.objectcommit.conditional-writes.share-verdict");
  }

  private static void assertBad(String key, String value, String named) {
    Configuration conf = offline(new Configuration(false));
    conf.set(key, value);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StoreConfig.from(conf, "b"));
    assertTrue(e.getMessage().contains(named) && e.getMessage().contains(value), e.getMessage());
  }
}
