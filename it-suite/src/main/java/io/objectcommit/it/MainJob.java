package io.objectcommit.it;

import io.objectcommit.bench.BenchResults;
import io.objectcommit.bench.BenchSettings;
import io.objectcommit.bench.BenchmarkRun;
import io.objectcommit.testsupport.RunningEndpoint;
import io.objectcommit.testsupport.S3Endpoints;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.S3TestSettings;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;

/**
 * The main job (README: {@code bin/run-main-job}): starts an embedded S3 endpoint (LocalStack, unless
 * {@code OBJECTCOMMIT_S3_ENDPOINT} names one), checks a Parquet write and read-back through {@code s3a://} with
 * Spark {@code local[2]}, then runs the side-by-side benchmarks (io.objectcommit.bench) and prints their tables.
 * Exits 1 when the check fails.
 *
 * <p>Arguments: {@code [short|full] [key=value ...]} (see {@link BenchSettings#parse}); {@code short}, the
 * default, takes a few minutes; {@code full} ({@code bin/run-benchmarks}) is the run of docs/benchmarks.md;
 * {@code soak [key=value ...]} ({@code bin/soak}) runs {@link SoakMain} instead, {@code codecs [key=value ...]}
 * ({@code bin/run-codec-benchmark}) {@link CodecBenchMain}, {@code readcache [key=value ...]}
 * ({@code bin/run-readcache-benchmark}) {@link ReadCacheMain}, {@code curves [key=value ...]}
 * ({@code bin/run-cost-curves}) {@link CurvesMain}.
 */
public final class MainJob {

  private static final long SMOKE_ROWS = 200_000;
  private static final int SMOKE_FILES = 4;

  private MainJob() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("soak")) {
      // bin/soak: the long soak run (SoakMain), through the same exec execution as this job
      System.exit(SoakMain.run(List.of(args).subList(1, args.length)));
    }
    if (args.length > 0 && args[0].equals("codecs")) {
      // bin/run-codec-benchmark: the compressed-text benchmark (CodecBenchMain), through the same exec execution
      System.exit(CodecBenchMain.run(List.of(args).subList(1, args.length)));
    }
    if (args.length > 0 && args[0].equals("readcache")) {
      // bin/run-readcache-benchmark: the read-cache benchmark (ReadCacheMain), through the same exec execution
      System.exit(ReadCacheMain.run(List.of(args).subList(1, args.length)));
    }
    if (args.length > 0 && args[0].equals("curves")) {
      // bin/run-cost-curves: the cost curves (CurvesMain), through the same exec execution as this job
      System.exit(CurvesMain.run(List.of(args).subList(1, args.length)));
    }
    BenchSettings settings = BenchSettings.parse(List.of(args));
    int code = run(settings);
    System.exit(code);
  }

  static int run(BenchSettings settings) throws Exception {
    long t0 = System.nanoTime();
    progress("starting the S3 endpoint (first run: LocalStack is installed into a cache, about a minute)");
    RunningEndpoint running = S3Endpoints.shared();
    progress("S3 endpoint: " + running.endpoint() + running.logFile().map(p -> ", log " + p).orElse(""));
    try {
      if (!smoke(running, SMOKE_ROWS, SMOKE_FILES)) {
        return 1;
      }
      progress("benchmarks, " + settings.mode() + " run: " + settings.describe());
      String machine = Runtime.getRuntime().availableProcessors() + " cores, "
          + (running.endpoint().isLocalStack() ? "LocalStack " + running.endpoint().kind().name().toLowerCase(
              Locale.ROOT) + " mode" : "external S3 endpoint");
      BenchResults results = new BenchmarkRun(settings, running.endpoint(), machine).run();
      System.out.println();
      System.out.println(BenchmarkRun.markdown(results));
      progress(String.format("done in %.0f s", (System.nanoTime() - t0) / 1e9)
          + (results.failures().isEmpty() ? "" : "; FAILED: " + results.failures()));
      return results.failures().isEmpty() ? 0 : 1;
    } finally {
      running.close();
    }
  }

  /** Writes {@code rows} rows through s3a:// and reads them back; false when what came back differs. */
  static boolean smoke(RunningEndpoint running, long rows, int files) throws Exception {
    try (S3TestBucket bucket = S3TestBucket.create(running.endpoint(), "main-job",
        S3TestSettings.fromEnvironment().sharedBucket().orElse(null))) {
      String path = bucket.s3a("smoke/table");
      try (SparkSession spark = SparkSessions.local("objectcommit-main-job", bucket.s3aOptions())) {
        progress(String.format("sanity check: writing %,d rows as %d Parquet files to %s", rows, files, path));
        long w0 = System.nanoTime();
        SmokeJob.write(spark, path, rows, files);
        long writeMs = (System.nanoTime() - w0) / 1_000_000;
        List<String> keys = bucket.listKeys("smoke/table/");
        SmokeJob.Result got = SmokeJob.read(spark, path);
        SmokeJob.Result want = SmokeJob.expected(rows);
        boolean ok = want.equals(got);
        progress(String.format("sanity check: written in %,d ms (%d objects), read back: %s", writeMs, keys.size(),
            ok ? "OK, " + got : "FAILED: expected " + want + ", got " + got));
        return ok;
      }
    }
  }

  private static void progress(String msg) {
    System.out.println("[main-job] " + msg);
    System.out.flush();
  }
}
