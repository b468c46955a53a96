package io.objectcommit.store.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.config.ConfigReader;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class StoreOptionsTest {

  private static Configuration conf() {
    return new Configuration(false);
  }

  @Test
  void defaults() {
    StoreOptions o = StoreOptions.from(new ConfigReader(conf(), "b"));
    assertEquals(StoreConstants.MULTIPART_SIZE_DEFAULT, o.multipartSize());
    assertEquals(StoreConstants.MULTIPART_THRESHOLD_DEFAULT, o.multipartThreshold());
    assertTrue(o.retryPolicy().shouldRetry(RetryPolicy.Kind.TRANSIENT, StoreConstants.RETRY_LIMIT_DEFAULT - 1));
    assertTrue(!o.retryPolicy().shouldRetry(RetryPolicy.Kind.TRANSIENT, StoreConstants.RETRY_LIMIT_DEFAULT));
  }

  @Test
  void unitsAndPerBucketOverrides() {
    Configuration c = conf();
    c.set("fs.s3a.multipart.size", "8M");
    c.set("fs.s3a.bucket.special.multipart.size", "16m");
    c.set("fs.objectcommit.retry.interval", "2s");
    StoreOptions plain = StoreOptions.from(new ConfigReader(c, "plain"));
    StoreOptions special = StoreOptions.from(new ConfigReader(c, "special"));
    assertEquals(8L << 20, plain.multipartSize());
    assertEquals(16L << 20, special.multipartSize());
    assertEquals(2000, plain.retryPolicy().backoffMs(0, () -> 0.99999999));
  }

  @Test
  void badValuesFailNamingTheKey() {
    assertBad("fs.objectcommit.retry.limit", "-1", "fs.objectcommit.retry.limit");
    assertBad("fs.objectcommit.retry.limit", "many", "fs.objectcommit.retry.limit");
    assertBad("fs.objectcommit.retry.interval", "soon", "fs.objectcommit.retry.interval");
    assertBad("fs.s3a.multipart.size", "1M", "fs.s3a.multipart.size");
    assertBad("fs.s3a.multipart.size", "lots", "fs.s3a.multipart.size");
    assertBad("fs.objectcommit.bucket.b.retry.limit", "x", "fs.objectcommit.bucket.b.retry.limit");
  }

  private static void assertBad(String key, String value, String named) {
    Configuration c = conf();
    c.set(key, value);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> StoreOptions.from(new ConfigReader(c, "b")));
    assertTrue(e.getMessage().contains(named) && e.getMessage().contains(value), e.getMessage());
  }

  @Test
  void parsesDurationsAndSizes() {
    assertEquals(1500, ConfigReader.parseDurationMs("1500"));
    assertEquals(1500, ConfigReader.parseDurationMs("1500ms"));
    assertEquals(5000, ConfigReader.parseDurationMs("5s"));
    assertEquals(120_000, ConfigReader.parseDurationMs("2m"));
    assertEquals(64L << 20, ConfigReader.parseBytes("64M"));
    assertEquals(1L << 30, ConfigReader.parseBytes("1g"));
    assertEquals(12345, ConfigReader.parseBytes("12345"));
    assertThrows(IllegalArgumentException.class, () -> ConfigReader.parseDurationMs("5 fortnights"));
    assertThrows(IllegalArgumentException.class, () -> ConfigReader.parseBytes("-5"));
  }
}
