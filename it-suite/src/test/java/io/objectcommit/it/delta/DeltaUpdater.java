package io.objectcommit.it.delta;

import io.objectcommit.it.SparkSessions;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * A writer of {@link DeltaConcurrentWritersIT} that updates instead of appending: a Spark application in its own
 * JVM that runs {@code UPDATE ... SET id = id + 1 WHERE writer = }{@value #SEEDED_WRITER} (the rows written at
 * the table's creation) a number of times on each of its tables in turn, each transaction's {@code userMetadata}
 * {@code u<updater>-n<i>}. Two updaters rewrite the same file: Delta's conflict detection must fail the later one (a
 * concurrent modification exception, not retried by Delta) or order them, never lose one. Reports as
 * {@link DeltaAppender} does.
 *
 * <p>Arguments: tables, report files ({@link DeltaWriterJvm}), then updater, updates, then {@code key=value} Spark
 * settings.
 */
public final class DeltaUpdater {

  /** The writer column of the rows the table is created with, which the updaters update. */
  static final int SEEDED_WRITER = 99;

  private DeltaUpdater() {
  }

  static String txn(int updater, int n) {
    return "u" + updater + "-n" + n;
  }

  public static void main(String[] args) throws Exception {
    int code = 0;
    try (DeltaWriterJvm jvm = DeltaWriterJvm.open(args, 2);
        SparkSession spark = SparkSessions.local("delta-updater-" + jvm.arg(0), "local[1]", Map.of(),
            jvm.sparkConf())) {
      int updater = Integer.parseInt(jvm.arg(0));
      int updates = Integer.parseInt(jvm.arg(1));
      for (int n = 0; n < updates; n++) {
        String txn = txn(updater, n);
        spark.conf().set("spark.databricks.delta.commitInfo.userMetadata", txn);
        for (int t = 0; t < jvm.tables().size(); t++) {
          try {
            spark.sql("UPDATE delta.`" + jvm.tables().get(t) + "` SET id = id + 1 WHERE writer = " + SEEDED_WRITER);
            jvm.committed(t, txn);
          } catch (Exception e) {
            jvm.failed(t, txn, e.getClass().getName() + ": " + e.getMessage());
            e.printStackTrace();
          }
        }
      }
    } catch (Throwable t) {
      t.printStackTrace();
      code = 1;
    }
    System.exit(code);
  }
}
