package io.objectcommit.it.faults;

import static org.apache.spark.sql.functions.col;

import io.objectcommit.testsupport.SparkCompat;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;

/**
 * The stateful query of the checkpoint scenarios: a file source (one file per micro-batch), counts by
 * {@code value % StreamInput.KEYS}, complete mode, and a {@code foreachBatch} sink that records every micro-batch's
 * rows in this JVM (Spark runs {@code foreachBatch} on the driver), so that tests can check which batches ran and
 * the state after the last one. One query at a time per JVM.
 */
public final class CountingQuery {

  /** Called in the sink after a micro-batch's rows are recorded (a test may hold a batch there). */
  @FunctionalInterface
  public interface AfterBatch extends Serializable {
    void after(long batchId) throws Exception;
  }

  /** Rows recorded by the sink: {batch id, key, count}; key -1 marks the end of a batch. */
  private static final List<long[]> OUTPUT = Collections.synchronizedList(new ArrayList<>());

  private CountingQuery() {
  }

  public static StreamingQuery start(SparkSession spark, Path input, String checkpoint) throws TimeoutException {
    return start(spark, input, checkpoint, id -> { });
  }

  public static StreamingQuery start(SparkSession spark, Path input, String checkpoint, AfterBatch after)
      throws TimeoutException {
    return start(spark, input, checkpoint, id -> { }, after);
  }

  /**
   * Starts the query with a call before each micro-batch's rows are computed as well as after.
   *
   * @param before called in the sink before a micro-batch's rows are computed (before its stateful tasks run and
   *     write state files)
   */
  public static StreamingQuery start(SparkSession spark, Path input, String checkpoint, AfterBatch before,
      AfterBatch after) throws TimeoutException {
    Dataset<Row> counts = spark.readStream().schema("value LONG").option("maxFilesPerTrigger", 1)
        .csv(input.toString())
        .groupBy(col("value").mod(StreamInput.KEYS).cast("int").as("k")).count();
    VoidFunction2<Dataset<Row>, Long> sink = (batch, id) -> {
      before.after(id);
      for (Row r : batch.collectAsList()) {
        OUTPUT.add(new long[] {id, r.getInt(0), r.getLong(1)});
      }
      OUTPUT.add(new long[] {id, -1, 0});
      after.after(id);
    };
    return SparkCompat.option(counts.writeStream().outputMode("complete"), "checkpointLocation", checkpoint)
        .foreachBatch(sink).start();
  }

  /** Forgets what the sink recorded. */
  public static void clear() {
    OUTPUT.clear();
  }

  /** Ids of the micro-batches completed since {@link #clear()}, in order. */
  public static List<Long> batches() {
    List<Long> ids = new ArrayList<>();
    synchronized (OUTPUT) {
      OUTPUT.stream().filter(r -> r[1] == -1).forEach(r -> ids.add(r[0]));
    }
    return ids;
  }

  /** The counts by key of the last micro-batch (complete mode: the whole state); empty if none ran. */
  public static Map<Integer, Long> lastCounts() {
    Map<Integer, Long> m = new TreeMap<>();
    synchronized (OUTPUT) {
      if (OUTPUT.isEmpty()) {
        return m;
      }
      long last = OUTPUT.get(OUTPUT.size() - 1)[0];
      OUTPUT.stream().filter(r -> r[0] == last && r[1] >= 0).forEach(r -> m.put((int) r[1], r[2]));
    }
    return m;
  }
}
