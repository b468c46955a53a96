package io.objectcommit.store.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** Lists, enum choices and longs, with per-bucket overrides; bad values name the key in force. */
class ConfigReaderTest {

  enum Mode {
    FAIL, ABORT_TASK, KEEP
  }

  private static ConfigReader reader(String... kv) {
    Configuration conf = new Configuration(false);
    for (int i = 0; i < kv.length; i += 2) {
      conf.set(kv[i], kv[i + 1]);
    }
    return new ConfigReader(conf, "b");
  }

  @Test
  void listsAreTrimmedWithoutEmptyEntries() {
    assertEquals(List.of("/a", "/b"), reader("fs.objectcommit.x", " /a, ,/b ,").getList("fs.objectcommit.x",
        List.of("d")));
    assertEquals(List.of("d"), reader().getList("fs.objectcommit.x", List.of("d")));
    assertEquals(List.of("d"), reader("fs.objectcommit.x", " , ").getList("fs.objectcommit.x", List.of("d")));
  }

  @Test
  void aPerBucketListWins() {
    assertEquals(List.of("/c"), reader("fs.objectcommit.x", "/a", "fs.objectcommit.bucket.b.x", "/c")
        .getList("fs.objectcommit.x", List.of()));
  }

  @Test
  void enumsAcceptCaseAndHyphens() {
    assertEquals(Mode.ABORT_TASK, reader("fs.objectcommit.m", "Abort-Task").getEnum("fs.objectcommit.m", Mode.class,
        Mode.FAIL));
    assertEquals(Mode.KEEP, reader("fs.objectcommit.bucket.b.m", "keep").getEnum("fs.objectcommit.m", Mode.class,
        Mode.FAIL));
    assertEquals(Mode.FAIL, reader().getEnum("fs.objectcommit.m", Mode.class, Mode.FAIL));
    assertEquals("abort-task", ConfigReader.enumValue(Mode.ABORT_TASK));
  }

  @Test
  void aBadEnumNamesTheKeyInForceAndTheChoices() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> reader("fs.objectcommit.bucket.b.m", "abort").getEnum("fs.objectcommit.m", Mode.class, Mode.FAIL));
    assertTrue(e.getMessage().contains("fs.objectcommit.bucket.b.m"), e.getMessage());
    assertTrue(e.getMessage().contains("fail, abort-task, keep"), e.getMessage());
  }

  @Test
  void longsAreBounded() {
    assertEquals(5_000_000_000L, reader("fs.objectcommit.n", "5000000000").getLong("fs.objectcommit.n", 1, 0,
        Long.MAX_VALUE));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> reader("fs.objectcommit.n", "-1").getLong("fs.objectcommit.n", 1, 0, 10));
    assertTrue(e.getMessage().contains("fs.objectcommit.n") && e.getMessage().contains("from 0 to 10"),
        e.getMessage());
  }

  @Test
  void keysOfOtherPrefixesHaveNoPerBucketForm() {
    assertEquals("v", reader("spark.x", "v", "fs.objectcommit.bucket.b.spark.x", "w").get("spark.x", null));
  }
}
