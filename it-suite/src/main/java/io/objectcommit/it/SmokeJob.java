package io.objectcommit.it;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.countDistinct;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * Writes a deterministic Parquet dataset to a path and reads it back. The rows are {@code id} 0..n-1, {@code
 * bucket = id % 7} and {@code name = 'row-' + id}, so the expected count and sums are known in closed form.
 */
public final class SmokeJob {

  /** What was read back, to compare with {@link #expected(long)}. */
  public static final class Result {
    public final long rows;
    public final long idSum;
    public final long distinctNames;
    public final long bucketSum;

    public Result(long rows, long idSum, long distinctNames, long bucketSum) {
      this.rows = rows;
      this.idSum = idSum;
      this.distinctNames = distinctNames;
      this.bucketSum = bucketSum;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Result)) {
        return false;
      }
      Result r = (Result) o;
      return rows == r.rows && idSum == r.idSum && distinctNames == r.distinctNames && bucketSum == r.bucketSum;
    }

    @Override
    public int hashCode() {
      return Long.hashCode(rows * 31 + idSum);
    }

    @Override
    public String toString() {
      return "rows=" + rows + " sum(id)=" + idSum + " distinct(name)=" + distinctNames + " sum(bucket)=" + bucketSum;
    }
  }

  private SmokeJob() {
  }

  public static Dataset<Row> dataset(SparkSession spark, long rows) {
    return spark.range(rows).selectExpr("id", "CAST(id % 7 AS INT) AS bucket", "concat('row-', id) AS name");
  }

  /** The result a correct write and read of {@code n} rows gives. */
  public static Result expected(long n) {
    long full = n / 7;
    long rest = n % 7;
    long bucketSum = full * 21 + rest * (rest - 1) / 2;
    return new Result(n, n * (n - 1) / 2, n, bucketSum);
  }

  /** Writes {@code rows} rows as {@code files} Parquet files to {@code path} (overwriting it). */
  public static void write(SparkSession spark, String path, long rows, int files) {
    dataset(spark, rows).repartition(files).write().mode(SaveMode.Overwrite).parquet(path);
  }

  public static Result read(SparkSession spark, String path) {
    Row r = spark.read().parquet(path)
        .agg(count(lit(1)), sum(col("id")), countDistinct(col("name")), sum(col("bucket")))
        .first();
    return new Result(r.getLong(0), r.isNullAt(1) ? 0 : r.getLong(1), r.getLong(2), r.isNullAt(3) ? 0 : r.getLong(3));
  }
}
