package io.objectcommit.bench;

import static org.apache.spark.sql.functions.sum;

import io.objectcommit.it.SparkSessions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * One application of the read-cache benchmark, run in a JVM of its own ({@link ReadCacheBenchmark}): reads the
 * Parquet table and sums both columns, as a second, separate application of seed 003's experiment does, and prints
 * one result line ({@value #RESULT_PREFIX}{@code ms=... fill-ms=... a=... b=...}) that the benchmark parses.
 *
 * <p>Before the measured read the application sums a small local Parquet table of the same schema twice (the
 * warm-up table, on local disk): a fresh JVM's first Spark query spends seconds compiling Spark's Parquet reader and
 * aggregation (far more on a busy machine), the same for every contender, which would hide what the contenders
 * differ in; an application that has run a query before pays none of it. The whole application's time, JVM start
 * included, is measured by the benchmark beside this.
 *
 * <p>The time measured: from {@code spark.read().parquet(table)} (listing and schema included, which every new
 * application pays) to the sums on the driver. For {@link ReadContender#PERSIST}: the DataFrame is persisted
 * (Spark's default level, memory and disk), a first sum reads S3 and fills ({@code fill-ms}), and the second sum,
 * the measured one, reads what Spark kept.
 *
 * <p>Arguments: {@code <contender> <master> <table> <warm-up table> [hadoop-key=value ...]}.
 */
public final class ReadApplication {

  static final String RESULT_PREFIX = "[read-result] ";

  private ReadApplication() {
  }

  public static void main(String[] args) {
    ReadContender contender = ReadContender.of(args[0]);
    String master = args[1];
    String table = args[2];
    String warmUpTable = args[3];
    Map<String, String> hadoop = new LinkedHashMap<>();
    for (String a : List.of(args).subList(4, args.length)) {
      int eq = a.indexOf('=');
      hadoop.put(a.substring(0, eq), a.substring(eq + 1));
    }
    try (SparkSession spark = SparkSessions.local("objectcommit-read-" + contender.name().toLowerCase(
        java.util.Locale.ROOT), master, hadoop, Map.of())) {
      for (int i = 0; i < 2; i++) {
        sums(spark.read().parquet(warmUpTable));
      }
      long fillMs = 0;
      long t0 = System.nanoTime();
      Dataset<Row> df = spark.read().parquet(table);
      if (contender.persist()) {
        df = df.persist();
        sums(df);
        fillMs = (System.nanoTime() - t0) / 1_000_000;
        t0 = System.nanoTime();
      }
      double[] s = sums(df);
      long ms = (System.nanoTime() - t0) / 1_000_000;
      System.out.println(RESULT_PREFIX + "ms=" + ms + " fill-ms=" + fillMs + " a=" + s[0] + " b=" + s[1]);
      System.out.flush();
    }
  }

  private static double[] sums(Dataset<Row> df) {
    Row r = df.agg(sum("a"), sum("b")).first();
    return new double[] {r.getDouble(0), r.getDouble(1)};
  }
}
