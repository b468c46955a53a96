package io.objectcommit.it.direct;

import static org.apache.spark.sql.functions.col;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
  private static volatile int heldPartition = -1;
  private static volatile long holdAfterRows;
  private static volatile CountDownLatch held = new CountDownLatch(1);
  private static volatile CountDownLatch release = new CountDownLatch(1);

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
    heldPartition = -1;
    release.countDown();
  }

  /**
   * Attempt 0 of {@code partition} stops after {@code rows} rows until {@link #releaseHeld()}: a task still
   * running when its job is aborted.
   */
  static void hold(int partition, long rows) {
    held = new CountDownLatch(1);
    release = new CountDownLatch(1);
    holdAfterRows = rows;
    heldPartition = partition;
  }

  /** Waits until the held attempt has stopped; false after the timeout. */
  static boolean awaitHeld(long seconds) throws InterruptedException {
    return held.await(seconds, TimeUnit.SECONDS);
  }

  static void releaseHeld() {
    release.countDown();
  }

  static final class Identity implements UDF1<Long, Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public Long call(Long id) {
      TaskContext t = TaskContext.get();
      if (t != null && t.partitionId() == heldPartition && t.attemptNumber() == 0) {
        long n = ROWS.computeIfAbsent(t.taskAttemptId(), k -> new AtomicLong()).incrementAndGet();
        if (n == holdAfterRows + 1) {
          held.countDown();
          awaitQuietly(release);
        }
      }
      if (t != null && t.partitionId() == failingPartition && t.attemptNumber() < failingAttempts) {
        long n = ROWS.computeIfAbsent(t.taskAttemptId(), k -> new AtomicLong()).incrementAndGet();
        if (n > failAfterRows) {
          if (heldPartition >= 0) {
            awaitQuietly(held); // the held attempt is mid-write when this failure aborts the job
          }
          throw new IllegalStateException("injected failure of partition " + t.partitionId() + ", attempt "
              + t.attemptNumber() + " after " + failAfterRows + " rows");
        }
      }
      return id;
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(120, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** {@code tasks} partitions sorted by bucket, with the failing identity applied to {@code id} above the sort. */
  static Dataset<Row> prepare(Dataset<Row> ds, int tasks) {
    UserDefinedFunction f = functions.udf(new Identity(), DataTypes.LongType).asNondeterministic();
    return ds.repartition(tasks).sortWithinPartitions("bucket").withColumn("id", f.apply(col("id")));
  }
}
