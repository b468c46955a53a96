package io.objectcommit.it.defaults;

import io.objectcommit.it.SmokeJob;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.CountingQuery;
import io.objectcommit.it.faults.StreamInput;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;

/**
 * The small job of the default-settings tests: a write with each committer read back, and a counting query on
 * {@code ckpt://} restarted once. Used in-process by {@link KeysInConfigurationIT} and as the main class of the
 * child JVMs of {@link CredentialsFromEnvironmentIT} (arguments: bucket, prefix, local input directory, then
 * {@code key=value} Hadoop settings; prints one line per check and exits 0 when all hold, 1 otherwise).
 */
public final class DefaultsJob {

  static final long ROWS = 5_000;
  static final int FILES = 2;

  private DefaultsJob() {
  }

  /** Writes {@link #ROWS} rows with {@code committer} to {@code path}; null when they read back exactly. */
  static String write(SparkSession spark, String committer, String path) {
    spark.conf().set(UserSettings.PARQUET_COMMITTER, committer);
    // Spark 4.1 defaults to PathOutputCommitProtocol when spark-hadoop-cloud is present, which ignores the line above.
    String protocol = spark.conf().get(SparkSessions.COMMIT_PROTOCOL);
    spark.conf().set(SparkSessions.COMMIT_PROTOCOL, SparkSessions.DEFAULT_COMMIT_PROTOCOL);
    try {
      SmokeJob.write(spark, path, ROWS, FILES);
      SmokeJob.Result got = SmokeJob.read(spark, path);
      SmokeJob.Result want = SmokeJob.expected(ROWS);
      return want.equals(got) ? null : committer + ": expected " + want + ", read back " + got;
    } finally {
      spark.conf().unset(UserSettings.PARQUET_COMMITTER);
      spark.conf().set(SparkSessions.COMMIT_PROTOCOL, protocol);
    }
  }

  /**
   * Runs the counting query on {@code checkpoint} over two input files (two micro-batches), stops it, adds a
   * third file and restarts it; null when the restarted query ran exactly batch 2 and the counts are exact.
   */
  static String checkpoint(SparkSession spark, String checkpoint, Path inputDir) throws Exception {
    StreamInput in = new StreamInput(inputDir);
    in.addFile(0);
    in.addFile(1);
    CountingQuery.clear();
    StreamingQuery q = CountingQuery.start(spark, inputDir, checkpoint);
    try {
      q.processAllAvailable();
    } finally {
      q.stop();
    }
    if (q.exception().isDefined()) {
      return "first run failed: " + q.exception().get();
    }
    List<Long> first = CountingQuery.batches();
    if (!List.of(0L, 1L).equals(first) || !StreamInput.expectedCounts(2).equals(CountingQuery.lastCounts())) {
      return "first run: batches " + first + ", counts " + CountingQuery.lastCounts();
    }
    in.addFile(2);
    CountingQuery.clear();
    StreamingQuery again = CountingQuery.start(spark, inputDir, checkpoint);
    try {
      again.processAllAvailable();
    } finally {
      again.stop();
    }
    if (again.exception().isDefined()) {
      return "restart failed: " + again.exception().get();
    }
    List<Long> second = CountingQuery.batches();
    if (!List.of(2L).equals(second) || !StreamInput.expectedCounts(3).equals(CountingQuery.lastCounts())) {
      return "after the restart: batches " + second + " (expected [2]), counts " + CountingQuery.lastCounts()
          + " (expected " + StreamInput.expectedCounts(3) + ")";
    }
    return null;
  }

  public static void main(String[] args) {
    String bucket = args[0];
    String prefix = args[1];
    Path input = Path.of(args[2]);
    Map<String, String> hadoop = new LinkedHashMap<>();
    for (int i = 3; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      hadoop.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    List<String> problems = new ArrayList<>();
    try (SparkSession spark = SparkSessions.local("defaults-child", "local[2]", hadoop, UserSettings.spark())) {
      String base = bucket + "/" + prefix + "child/";
      check(problems, "direct", write(spark, UserSettings.DIRECT, "s3a://" + base + "direct"));
      check(problems, "staging", write(spark, UserSettings.STAGING, "s3a://" + base + "staging"));
      check(problems, "checkpoint", checkpoint(spark, "ckpt://" + base + "checkpoint", input));
    } catch (Throwable t) {
      t.printStackTrace();
      problems.add("failed: " + t);
    }
    System.out.println("DEFAULTS-JOB " + (problems.isEmpty() ? "OK" : "FAILED " + problems));
    System.exit(problems.isEmpty() ? 0 : 1);
  }

  private static void check(List<String> problems, String what, String problem) {
    System.out.println("DEFAULTS-JOB " + what + ": " + (problem == null ? "OK" : problem));
    if (problem != null) {
      problems.add(what + ": " + problem);
    }
  }
}
