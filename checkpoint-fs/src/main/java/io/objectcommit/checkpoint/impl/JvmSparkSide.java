package io.objectcommit.checkpoint.impl;

import io.objectcommit.store.spark.SparkRuntime;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fencing's view of the Spark running in this JVM, read through the store module's {@link SparkRuntime} (Spark looked
 * up by name): the same for every Spark line, so each line's checkpoint manager only passes it on.
 */
public final class JvmSparkSide implements CheckpointFiles.SparkSide {

  private static final Logger LOG = LoggerFactory.getLogger(JvmSparkSide.class);
  private static final JvmSparkSide INSTANCE = new JvmSparkSide(SparkRuntime.jvm());

  private final SparkRuntime spark;

  JvmSparkSide(SparkRuntime spark) {
    this.spark = spark;
  }

  /** The Spark of this JVM. */
  public static JvmSparkSide get() {
    return INSTANCE;
  }

  @Override
  public boolean onDriver() {
    return !spark.inTask();
  }

  @Override
  public String taskProperty(String key) {
    return spark.inTask() ? spark.localProperty(key).orElse(null) : null;
  }

  @Override
  public void setDriverProperty(String key, String value) {
    if (!spark.setLocalProperty(key, value)) {
      // without it the query's tasks write as processes never told an epoch: unfenced, as before fencing
      LOG.warn("No active SparkContext on this thread to pass {} to the query's tasks: its executors will not be"
          + " fenced if this driver is taken over", key);
    }
  }

  @Override
  public String newOwnerId() {
    return spark.applicationId().orElse("no-spark-app-id") + "/" + UUID.randomUUID();
  }
}
