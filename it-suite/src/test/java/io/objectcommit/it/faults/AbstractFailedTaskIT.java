package io.objectcommit.it.faults;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.countDistinct;

import io.objectcommit.it.SmokeJob;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.FaultPlan;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario: an appending Parquet write (20,000 rows, 4 tasks, at most 1,000 rows per file) in which the first
 * attempt of task 3 fails after writing {@value #FAIL_AFTER_ROWS} of its 5,000 rows; Spark retries it once
 * ({@code local[2,2]}). Then the pipeline runs the same append again, as an orchestrator re-runs a failed job. A
 * subclass names the committer and asserts the {@link Outcome}.
 */
@S3IntegrationTest
public abstract class AbstractFailedTaskIT {

  private static final Logger LOG = LoggerFactory.getLogger(AbstractFailedTaskIT.class);
  public static final long ROWS = 20_000;
  public static final int TASKS = 4;
  public static final int FAILING_PARTITION = 3;
  public static final long FAIL_AFTER_ROWS = 2_500;
  private static volatile boolean failing;

  /** What the two runs left. */
  public static final class Outcome {
    public final Throwable firstRunFailure;
    public final List<String> keysAfterFailure;
    public final long rowsAfterFailure;
    public final long rowsAfterRerun;
    public final long distinctIdsAfterRerun;

    Outcome(Throwable firstRunFailure, List<String> keysAfterFailure, long rowsAfterFailure, long rowsAfterRerun,
        long distinctIdsAfterRerun) {
      this.firstRunFailure = firstRunFailure;
      this.keysAfterFailure = keysAfterFailure;
      this.rowsAfterFailure = rowsAfterFailure;
      this.rowsAfterRerun = rowsAfterRerun;
      this.distinctIdsAfterRerun = distinctIdsAfterRerun;
    }

    @Override
    public String toString() {
      return "first run failed with " + (firstRunFailure == null ? "nothing" : firstRunFailure.getClass().getName())
          + ", left " + keysAfterFailure.size() + " objects and " + rowsAfterFailure + " readable rows; after the"
          + " re-run " + rowsAfterRerun + " rows, " + distinctIdsAfterRerun + " distinct ids";
    }
  }

  protected abstract CommitterContender contender();

  protected abstract void verify(Outcome outcome);

  /** Passes rows through; attempt 0 of partition {@value #FAILING_PARTITION} throws after {@value #FAIL_AFTER_ROWS}. */
  static final class FailPartway implements MapPartitionsFunction<Row, Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public Iterator<Row> call(Iterator<Row> rows) {
      TaskContext task = TaskContext.get();
      boolean fail = failing && task.partitionId() == FAILING_PARTITION && task.attemptNumber() == 0;
      return new Iterator<Row>() {
        private long n;

        @Override
        public boolean hasNext() {
          return rows.hasNext();
        }

        @Override
        public Row next() {
          if (fail && ++n > FAIL_AFTER_ROWS) {
            throw new IllegalStateException("injected failure of partition " + FAILING_PARTITION + ", attempt "
                + task.attemptNumber());
          }
          return rows.next();
        }
      };
    }
  }

  private static void append(SparkSession spark, String path) {
    Dataset<Row> ds = SmokeJob.dataset(spark, ROWS).repartition(TASKS);
    ds.mapPartitions(new FailPartway(), Encoders.row(ds.schema()))
        .write().mode(SaveMode.Append).option("maxRecordsPerFile", 1000).parquet(path);
  }

  private static long rows(SparkSession spark, String path, List<String> keys) {
    return keys.stream().anyMatch(k -> k.endsWith(".parquet")) ? spark.read().parquet(path).count() : 0;
  }

  @Test
  void failedAppendThenRerun(S3TestBucket bucket) throws IOException {
    String table = bucket.s3a("table");
    try (ProxiedBucket proxied = new ProxiedBucket(bucket);
        SparkSession spark = SparkSessions.local("failed-task", "local[2,2]", proxied.s3aOptions(),
            contender().sparkConf())) {
      proxied.proxy().setFaults(FaultPlan.none());
      Throwable failure = null;
      failing = true;
      try {
        append(spark, table);
      } catch (Exception e) { // SparkException is checked but not declared by Scala
        failure = e;
      } finally {
        failing = false;
      }
      List<String> afterFailure = bucket.listKeys("table/");
      long rowsAfterFailure = rows(spark, table, afterFailure);
      append(spark, table);
      List<String> afterRerun = bucket.listKeys("table/");
      long rowsAfterRerun = rows(spark, table, afterRerun);
      long distinct = spark.read().parquet(table).agg(countDistinct(col("id"))).first().getLong(0);
      Outcome o = new Outcome(failure, afterFailure.stream().map(k -> k.substring(bucket.prefix().length()))
          .collect(Collectors.toList()), rowsAfterFailure, rowsAfterRerun, distinct);
      LOG.info("{} with a failing task: {}; objects after the failure: {}", contender().name(), o,
          o.keysAfterFailure);
      verify(o);
    }
  }
}
