package io.objectcommit.commit;

import java.lang.reflect.Method;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Spark tells a running task about its stage, looked up by name so that the committers also run without Spark
 * (MapReduce) and need no compile-time Spark dependency.
 */
public final class SparkTasks {

  private static final Logger LOG = LoggerFactory.getLogger(SparkTasks.class);
  /** Spark's per-task context, whose static {@code get()} is set on a thread that runs a Spark task. */
  static final String TASK_CONTEXT = "org.apache.spark.TaskContext";

  private SparkTasks() {
  }

  /**
   * The number of tasks (partitions) of the running task's stage, from Spark's {@code TaskContext}; {@code
   * fallback} outside a Spark task, or without Spark on the class path.
   */
  public static int taskCount(int fallback) {
    Methods m = Methods.INSTANCE;
    if (m == null) {
      return fallback;
    }
    try {
      Object context = m.get.invoke(null);
      return context == null ? fallback : (Integer) m.numPartitions.invoke(context);
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.debug("Spark's TaskContext could not be read; the task count is taken as {}", fallback, e);
      return fallback;
    }
  }

  /** Spark's methods, looked up once; {@code INSTANCE} is null without Spark. */
  private static final class Methods {
    static final Methods INSTANCE = lookUp();

    final Method get;
    final Method numPartitions;

    private Methods(Method get, Method numPartitions) {
      this.get = get;
      this.numPartitions = numPartitions;
    }

    private static Methods lookUp() {
      try {
        Class<?> c = Class.forName(TASK_CONTEXT, false, SparkTasks.class.getClassLoader());
        return new Methods(c.getMethod("get"), c.getMethod("numPartitions"));
      } catch (ClassNotFoundException | NoSuchMethodException | LinkageError e) {
        LOG.debug("No Spark TaskContext on the class path ({}): task counts come from the settings", e.toString());
        return null;
      }
    }
  }
}
