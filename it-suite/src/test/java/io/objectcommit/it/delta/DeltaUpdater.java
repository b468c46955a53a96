package io.objectcommit.it.delta;

import io.objectcommit.it.SparkSessions;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * A writer of {@link DeltaConcurrentWritersIT} that updates instead of appending: a Spark application in its own
 * JVM that runs {@code UPDATE ... SET id = id + 1 WHERE writer = }{@value #SEEDED_WRITER} (the rows written at
 * the table's creation) a number of times, each transaction's {@code userMetadata} {@code u<updater>-n<i>}. Two
 * updaters rewrite the same file: Delta's conflict detection must fail the later one (a concurrent modification
 * exception, not retried by Delta) or order them, never lose one. Reports as {@link DeltaAppender} does.
 *
 * <p>Arguments: table, updater, updates, report file, then {@code key=value} Spark settings.
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
    String table = args[0];
    int updater = Integer.parseInt(args[1]);
    int updates = Integer.parseInt(args[2]);
    Path report = Path.of(args[3]);
    Map<String, String> conf = new LinkedHashMap<>();
    for (int i = 4; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      conf.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    int code = 0;
    try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(report, StandardCharsets.UTF_8), true);
        SparkSession spark = SparkSessions.local("delta-updater-" + updater, "local[1]", Map.of(), conf)) {
      for (int n = 0; n < updates; n++) {
        String txn = txn(updater, n);
        spark.conf().set("spark.databricks.delta.commitInfo.userMetadata", txn);
        try {
          spark.sql("UPDATE delta.`" + table + "` SET id = id + 1 WHERE writer = " + SEEDED_WRITER);
          out.println(txn + " ok");
        } catch (Exception e) {
          out.println(txn + " failed " + e.getClass().getName() + ": " + String.valueOf(e.getMessage())
              .replace('\n', ' '));
          e.printStackTrace();
        }
      }
    } catch (Throwable t) {
      t.printStackTrace();
      code = 1;
    }
    System.exit(code);
  }
}
