package io.objectcommit.it;

import org.apache.spark.SparkEnv;
import org.apache.spark.sql.execution.streaming.state.StateStore$;

/**
 * Spark's state store registry ({@code StateStore}, a JVM-wide object) outlives the SparkContexts of the queries
 * that loaded its providers: their maintenance (snapshots, deletion of old versions) keeps running on a timer
 * against the checkpoints of queries that have stopped, through endpoints a test may have closed (a fault proxy),
 * where each attempt hangs in the client's retries, and later sessions of the same JVM wait for it when they stop.
 * Spark's own tests stop it after each suite; so do ours ({@code StateStoresReset}, {@code ProxiedBucket}).
 */
public final class SparkStateStores {

  private SparkStateStores() {
  }

  /**
   * Unloads every state store provider of this JVM and stops their maintenance, once no SparkContext runs here
   * (a running query's providers are left alone). Spark loads them again when a query next needs one.
   */
  public static void stopIfNoSparkRuns() {
    if (SparkEnv.get() == null) {
      StateStore$.MODULE$.stop();
    }
  }
}
