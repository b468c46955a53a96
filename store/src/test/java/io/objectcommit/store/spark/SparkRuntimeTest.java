package io.objectcommit.store.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading the running Spark by name, on stand-ins ({@link SparkStandIns}): Spark absent, present but idle, a
 * driver, an executor, a task thread, one method naming a class the runtime lacks, and Spark present but
 * unreadable (a class gone): each told apart, nothing thrown.
 */
class SparkRuntimeTest {

  @TempDir
  Path dir;

  @Test
  void withoutSparkEverythingIsEmpty() {
    SparkRuntime r = new SparkRuntime(SparkStandIns.noSpark());
    assertEquals(SparkRuntime.State.ABSENT, r.state());
    assertEquals(List.of(), r.problems());
    assertEquals(Optional.empty(), r.applicationId());
    assertFalse(r.isDriver());
    assertEquals(Optional.empty(), r.driverHadoopConfiguration());
    assertEquals(OptionalLong.empty(), r.taskAttemptId());
    assertEquals(Optional.empty(), r.localProperty(SparkRuntime.STREAMING_QUERY_ID));
    assertEquals(Optional.empty(), r.taskDescription());
    assertFalse(r.onTaskCompletion(() -> {
      throw new AssertionError("no task to complete");
    }));
  }

  @Test
  void sparkOnTheClassPathWithNothingRunning() throws Exception {
    SparkRuntime r = SparkStandIns.compile(dir).runtime();
    assertEquals(SparkRuntime.State.PRESENT, r.state(), r.problems().toString());
    assertEquals(Optional.empty(), r.applicationId());
    assertFalse(r.isDriver());
    assertEquals(Optional.empty(), r.driverHadoopConfiguration());
    assertEquals(OptionalLong.empty(), r.taskAttemptId());
  }

  @Test
  void aDriverAndItsTasks() throws Exception {
    SparkStandIns spark = SparkStandIns.compile(dir).environment("app-20261125-0001", "driver");
    Configuration hadoop = new Configuration(false);
    Object sc = spark.activeContext(hadoop);
    SparkRuntime r = spark.runtime();
    assertEquals(Optional.of("app-20261125-0001"), r.applicationId());
    assertEquals(Optional.of("name of app-20261125-0001"), r.applicationName());
    assertEquals(Optional.of("driver"), r.executorId());
    assertTrue(r.isDriver());
    assertSame(hadoop, r.driverHadoopConfiguration().orElseThrow());
    spark.localProperty(sc, SparkRuntime.STREAMING_QUERY_ID, "query-1");
    assertEquals(Optional.of("query-1"), r.localProperty(SparkRuntime.STREAMING_QUERY_ID),
        "a driver thread's local property");
    assertTrue(r.setLocalProperty("objectcommit.test", "set-by-us"));
    assertEquals(Optional.of("set-by-us"), r.localProperty("objectcommit.test"), "a property set through us");
    assertFalse(r.inTask());
    assertEquals(OptionalInt.empty(), r.taskPartitions(), "no task on this thread");
    spark.task(42, Map.of(SparkRuntime.STREAMING_QUERY_ID, "query-2"));
    try {
      assertTrue(r.inTask());
      assertEquals(OptionalInt.of(4), r.taskPartitions(), "the stage's task count");
      assertEquals(OptionalLong.of(42), r.taskAttemptId());
      assertEquals(Optional.of("query-2"), r.localProperty(SparkRuntime.STREAMING_QUERY_ID),
          "a task's own local property");
      assertEquals(Optional.of("task 42 (stage 7, partition 2, attempt 0)"), r.taskDescription());
    } finally {
      spark.task(-1, Map.of());
    }
  }

  @Test
  void actionsRunWhenTheTaskCompletesLastRegisteredFirstAndTheirFailuresStayOurs() throws Exception {
    SparkStandIns spark = SparkStandIns.compile(dir).environment("app-4", "1");
    SparkRuntime r = spark.runtime();
    List<String> ran = new ArrayList<>();
    spark.task(9, Map.of());
    assertTrue(r.onTaskCompletion(() -> ran.add("first")));
    assertTrue(r.onTaskCompletion(() -> {
      throw new IllegalStateException("planted");
    }));
    assertTrue(r.onTaskCompletion(() -> ran.add("last")));
    assertEquals(List.of(), ran, "nothing runs before the task completes");
    spark.completeTask();
    assertEquals(List.of("last", "first"), ran, "every action ran once, a failing one in between");
    assertFalse(r.onTaskCompletion(() -> ran.add("none")), "no task on the thread any more");
  }

  @Test
  void anExecutorHasNoActiveContext() throws Exception {
    SparkStandIns spark = SparkStandIns.compile(dir).environment("app-1", "3");
    spark.activeContext(null);
    SparkRuntime r = spark.runtime();
    assertEquals(Optional.of("app-1"), r.applicationId());
    assertFalse(r.isDriver());
    assertEquals(Optional.empty(), r.driverHadoopConfiguration());
    assertEquals(Optional.empty(), r.localProperty(SparkRuntime.STREAMING_QUERY_ID));
    assertFalse(r.setLocalProperty("objectcommit.test", "x"), "no context to set it on");
  }

  @Test
  void aMethodNamingAClassTheRuntimeLacksDoesNotMakeSparkUnreadable() throws Exception {
    SparkStandIns spark = SparkStandIns.compile(dir, SparkStandIns.MISSING).environment("app-2", "driver");
    SparkRuntime r = spark.runtime();
    assertEquals(SparkRuntime.State.PRESENT, r.state(), r.problems().toString());
    assertEquals(Optional.of("app-2"), r.applicationId());
  }

  @Test
  void aSparkThatCannotBeReadIsToldApartAndReadWhereItCan() throws Exception {
    SparkStandIns spark = SparkStandIns.compile(dir, "org.apache.spark.SparkContext$")
        .environment("app-3", "driver");
    SparkRuntime r = spark.runtime();
    assertEquals(SparkRuntime.State.UNREADABLE, r.state());
    assertEquals(1, r.problems().size(), r.problems().toString());
    assertTrue(r.problems().get(0).contains("org.apache.spark.SparkContext$"), r.problems().toString());
    assertEquals(Optional.of("app-3"), r.applicationId(), "what resolved is still read");
    assertTrue(r.isDriver());
    assertEquals(Optional.empty(), r.driverHadoopConfiguration(), "what did not is empty");
  }
}
