package io.objectcommit.staging.impl;

import org.apache.spark.TaskContext;

/** What Spark tells a running task about its stage, when the task runs inside Spark. */
public final class SparkTasks {

  private SparkTasks() {
  }

  /**
   * The number of tasks (partitions) of the running task's stage, from Spark's {@code TaskContext}; {@code
   * fallback} outside a Spark task (or without Spark on the classpath).
   */
  public static int taskCount(int fallback) {
    try {
      TaskContext tc = TaskContext.get();
      return tc == null ? fallback : tc.numPartitions();
    } catch (LinkageError e) {
      return fallback;
    }
  }
}
