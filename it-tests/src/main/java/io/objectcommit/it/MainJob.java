package io.objectcommit.it;

import io.objectcommit.testsupport.RunningEndpoint;
import io.objectcommit.testsupport.S3Endpoints;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.S3TestSettings;
import java.util.List;
import org.apache.spark.sql.SparkSession;

/**
 * The main job (README: {@code bin/run-main-job}): starts an embedded S3 endpoint (LocalStack, unless
 * {@code OBJECTCOMMIT_S3_ENDPOINT} names one), writes a Parquet dataset to {@code s3a://} with Spark
 * {@code local[2]}, reads it back and checks every row arrived. Exits 1 when the check fails.
 *
 * <p>Arguments: {@code [rows] [files]}, default 1,000,000 rows as 4 files.
 */
public final class MainJob {

  private MainJob() {
  }

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000L;
    int files = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    int code = run(rows, files);
    System.exit(code);
  }

  static int run(long rows, int files) throws Exception {
    long t0 = System.nanoTime();
    progress("starting the S3 endpoint (first run: LocalStack is installed into a cache, about a minute)");
    RunningEndpoint running = S3Endpoints.shared();
    progress("S3 endpoint: " + running.endpoint() + running.logFile().map(p -> ", log " + p).orElse(""));
    try (S3TestBucket bucket = S3TestBucket.create(running.endpoint(), "main-job",
        S3TestSettings.fromEnvironment().sharedBucket().orElse(null))) {
      String path = bucket.s3a("smoke/table");
      try (SparkSession spark = SparkSessions.local("objectcommit-main-job", bucket.s3aOptions())) {
        spark.sparkContext().setLogLevel("WARN");
        progress(String.format("writing %,d rows as %d Parquet files to %s", rows, files, path));
        long w0 = System.nanoTime();
        SmokeJob.write(spark, path, rows, files);
        long writeMs = (System.nanoTime() - w0) / 1_000_000;
        List<String> keys = bucket.listKeys("smoke/table/");
        progress(String.format("write done in %,d ms; %d objects under the table:", writeMs, keys.size()));
        keys.forEach(k -> System.out.println("    s3://" + bucket.name() + "/" + k));
        progress("reading the table back");
        SmokeJob.Result got = SmokeJob.read(spark, path);
        SmokeJob.Result want = SmokeJob.expected(rows);
        System.out.println();
        System.out.println("| check | expected | read back |");
        System.out.println("|---|---|---|");
        System.out.printf("| rows | %,d | %,d |%n", want.rows, got.rows);
        System.out.printf("| sum(id) | %,d | %,d |%n", want.idSum, got.idSum);
        System.out.printf("| distinct(name) | %,d | %,d |%n", want.distinctNames, got.distinctNames);
        System.out.printf("| sum(bucket) | %,d | %,d |%n", want.bucketSum, got.bucketSum);
        System.out.println();
        boolean ok = want.equals(got);
        progress((ok ? "OK" : "FAILED: the data read back differs from what was written")
            + String.format(" (total %,d ms)", (System.nanoTime() - t0) / 1_000_000));
        return ok ? 0 : 1;
      }
    } finally {
      running.close();
    }
  }

  private static void progress(String msg) {
    System.out.println("[main-job] " + msg);
    System.out.flush();
  }
}
