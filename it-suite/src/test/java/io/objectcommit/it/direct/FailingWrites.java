package io.objectcommit.it.direct;

import static org.apache.spark.sql.functions.col;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;

/**
 * Makes chosen task attempts fail in the middle of writing: a non-deterministic identity function on {@code id},
 * projected above the per-partition sort by {@code bucket}, so that Spark neither moves it below the sort nor
 * adds a sort of its own; it runs as the writer pulls rows, after the writer has closed (uploaded) some files.
 * Local mode only (the switches are static).
 */
final class FailingWrites {

  private static volatile int failingPartition = -1;
  private static volatile int failingAttempts;
  private static volatile long failAfterRows;
  private static final Map<Long, AtomicLong> ROWS = new ConcurrentHashMap<>();

  private FailingWrites() {
  }

  /** Attempts {@code 0..attempts-1} of {@code partition} fail after {@code rows} rows; -1: nothing fails. */
  static void arm(int partition, int attempts, long rows) {
    ROWS.clear();
    failingPartition = partition;
    failingAttempts = attempts;
    failAfterRows = rows;
  }

  static void disarm() {
    failingPartition = -1;
  }

  static final class Identity implements UDF1<Long, Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public Long call(Long id) {
      TaskContext t = TaskContext.get();
      if (t != null && t.partitionId() == failingPartition && t.attemptNumber() < failingAttempts) {
        long n = ROWS.computeIfAbsent(t.taskAttemptId(), k -> new AtomicLong()).incrementAndGet();
        if (n > failAfterRows) {
          throw new IllegalStateException("injected failure of partition " + t.partitionId() + ", attempt "
              + t.attemptNumber() + " after " + failAfterRows + " rows");
        }
      }
      return id;
    }
  }

  /** {@code tasks} partitions sorted by bucket, with the failing identity applied to {@code id} above the sort. */
  static Dataset<Row> prepare(Dataset<Row> ds, int tasks) {
    UserDefinedFunction f = functions.udf(new Identity(), DataTypes.LongType).asNondeterministic();
    return ds.repartition(tasks).sortWithinPartitions("bucket").withColumn("id", f.apply(col("id")));
  }
}
