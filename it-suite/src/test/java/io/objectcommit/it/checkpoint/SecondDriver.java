package io.objectcommit.it.checkpoint;

import static org.apache.spark.sql.functions.col;

import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.StreamInput;
import io.objectcommit.testsupport.SparkCompat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;

/**
 * A second Spark driver in its own JVM, for {@link ConcurrentQueriesIT}: runs the counting query on the given
 * checkpoint until its input is processed, then exits 0 (or 1 with the failure on stderr).
 *
 * <p>Arguments: input directory, checkpoint location, then {@code key=value} Spark/Hadoop settings.
 */
public final class SecondDriver {

  private SecondDriver() {
  }

  public static void main(String[] args) {
    Map<String, String> conf = new LinkedHashMap<>();
    for (int i = 2; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      conf.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    int code = 0;
    try (SparkSession spark = SparkSessions.local("second-driver", "local[2]", Map.of(), conf)) {
      runToEnd(spark, args[0], args[1]);
    } catch (Throwable t) {
      t.printStackTrace();
      code = 1;
    }
    System.exit(code);
  }

  /** Runs the counting query (the state of {@code CountingQuery}'s) until its input is processed, then stops it. */
  static void runToEnd(SparkSession spark, String input, String checkpoint) throws Exception {
    StreamingQuery q = SparkCompat.option(spark.readStream().schema("value LONG").csv(input)
        .groupBy(col("value").mod(StreamInput.KEYS).cast("int").as("k")).count()
        .writeStream().outputMode("complete"), "checkpointLocation", checkpoint).format("noop").start();
    q.processAllAvailable();
    q.stop();
  }
}
