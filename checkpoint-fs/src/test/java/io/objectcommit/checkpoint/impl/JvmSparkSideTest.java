package io.objectcommit.checkpoint.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.spark.SparkStandIns;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fencing's view of Spark, on stand-ins of Spark's classes: the driver's thread, and a task of its query. */
class JvmSparkSideTest {

  @TempDir
  Path dir;

  @Test
  void theDriverPassesTheOwnerToItsTasks() throws Exception {
    SparkStandIns spark = SparkStandIns.compile(dir).environment("app-20261126-0007", "driver");
    spark.activeContext(new Configuration(false));
    JvmSparkSide side = new JvmSparkSide(spark.runtime());
    assertTrue(side.onDriver());
    assertTrue(side.newOwnerId().startsWith("app-20261126-0007/"), side.newOwnerId());
    side.setDriverProperty("objectcommit.checkpoint.owner.ckpt://b/q", "owner|2");
    assertNull(side.taskProperty("objectcommit.checkpoint.owner.ckpt://b/q"), "not read outside a task");
    assertEquals("owner|2", spark.runtime().localProperty("objectcommit.checkpoint.owner.ckpt://b/q").orElseThrow(),
        "set on the driver's thread, whose jobs carry it");

    spark.task(9, Map.of("objectcommit.checkpoint.owner.ckpt://b/q", "owner|2"));
    try {
      assertFalse(side.onDriver(), "a task");
      assertEquals("owner|2", side.taskProperty("objectcommit.checkpoint.owner.ckpt://b/q"));
      assertNull(side.taskProperty("objectcommit.checkpoint.owner.ckpt://b/other"));
    } finally {
      spark.task(-1, Map.of());
    }
  }

  @Test
  void withoutSparkEverythingIsTheDriversAndNothingIsPassedOn() {
    JvmSparkSide side = new JvmSparkSide(SparkStandIns.absent());
    assertTrue(side.onDriver());
    assertNull(side.taskProperty("objectcommit.checkpoint.owner.ckpt://b/q"));
    side.setDriverProperty("objectcommit.checkpoint.owner.ckpt://b/q", "owner|1");
    assertTrue(side.newOwnerId().startsWith("no-spark-app-id/"), side.newOwnerId());
  }
}
