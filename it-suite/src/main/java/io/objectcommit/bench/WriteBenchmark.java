package io.objectcommit.bench;

import io.objectcommit.it.SparkSessions;
import io.objectcommit.testsupport.S3Endpoint;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.S3TestSettings;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one write contender on one shape: a fresh bucket, a fresh Spark session with the contender's settings and
 * S3A pointed at the proxy, the proxy's counts reset, then the Parquet write (Append to a new path) timed; then
 * checks through a client that does not go through the proxy that exactly the expected part files and a
 * {@code _SUCCESS} arrived.
 */
final class WriteBenchmark {

  private static final Logger LOG = LoggerFactory.getLogger(WriteBenchmark.class);

  /** On an external endpoint with a shared bucket, a fresh prefix in it instead of a new bucket per run. */
  private static final String SHARED_BUCKET = S3TestSettings.fromEnvironment().sharedBucket().orElse(null);

  private final S3Endpoint upstream;
  private final S3FaultProxy proxy;
  private final String master;
  private final CommitTimeLog commitLog;
  private final Map<String, String> sparkConf;

  /** {@code sparkConf}: the run's own Spark settings ({@link BenchSettings#sparkConf()}), after the contender's. */
  WriteBenchmark(S3Endpoint upstream, S3FaultProxy proxy, String master, CommitTimeLog commitLog,
      Map<String, String> sparkConf) {
    this.upstream = upstream;
    this.proxy = proxy;
    this.master = master;
    this.commitLog = commitLog;
    this.sparkConf = sparkConf;
  }

  WriteResult run(WriteShape shape, WriteContender contender) {
    // stop() in finally, not try-with-resources: Spark 4's SparkSession.close() declares IOException.
    try (S3TestBucket bucket = S3TestBucket.create(upstream, "bench-write", SHARED_BUCKET)) {
      Map<String, String> conf = new LinkedHashMap<>(contender.sparkConf());
      conf.putAll(sparkConf);
      SparkSession spark = SparkSessions.local("objectcommit-bench-write", master, proxyOptions(), conf);
      try {
      String table = bucket.s3a("table");
      commitLog.reset();
      proxy.resetCounts();
      long t0 = System.nanoTime();
      write(spark, shape, table);
      long jobMs = (System.nanoTime() - t0) / 1_000_000;
      Requests requests = Requests.of(proxy.counts());
      long commitMs = commitLog.lastCommitMs();
      check(bucket, shape, contender);
      LOG.debug("{} {}: {}", contender.name(), shape.label(), requests);
      return new WriteResult(shape.label(), shape.files(), contender.name(), jobMs, commitMs, requests);
      } finally {
        spark.stop();
        BenchFileSystems.closeAll();
      }
    }
  }

  /** The same data for every contender: {@code id}, {@code rand(7)}, {@code randn(11)}, one range split per task. */
  static void write(SparkSession spark, WriteShape shape, String path) {
    spark.range(0, shape.rows(), 1, shape.tasks())
        .selectExpr("id", "rand(7) AS x", "randn(11) AS y")
        .write().mode(SaveMode.Append)
        .option("maxRecordsPerFile", shape.rowsPerFile())
        .parquet(path);
  }

  private Map<String, String> proxyOptions() {
    return BenchFileSystems.cached(proxy.endpoint().s3aOptions());
  }

  private static void check(S3TestBucket bucket, WriteShape shape, WriteContender contender) {
    List<String> keys = bucket.listKeys("table/");
    long parts = keys.stream().filter(k -> k.startsWith(bucket.key("table/part-"))).count();
    boolean success = keys.contains(bucket.key("table/_SUCCESS"));
    if (parts != shape.files() || !success) {
      throw new IllegalStateException(contender.name() + ", " + shape.label() + ": expected " + shape.files()
          + " part files and _SUCCESS, found " + parts + " part files" + (success ? "" : " and no _SUCCESS")
          + " in " + bucket);
    }
  }
}
