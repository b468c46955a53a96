package io.objectcommit.it.seeded;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.countDistinct;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;

import io.objectcommit.it.SmokeJob;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.CommitterContender;
import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.it.faults.StagingCommitters;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.FaultPlan;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import io.objectcommit.testsupport.proxy.SeededFaults;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One seeded whole-job write: an appending Parquet write of {@value #ROWS} rows in {@value #TASKS} tasks, at most
 * {@value #MAX_RECORDS_PER_FILE} rows per file, partitioned by {@code bucket} for odd seeds, on {@code local[2,4]}
 * (a failed task is retried, as {@code spark.task.maxFailures=4} does on a cluster), every request through the
 * proxy under {@link SeededFaults#plan(long)}. A failed job is re-run up to {@value #JOB_RUNS} times in all, as
 * an orchestrator would, after {@link SeededStream#RESTART_PAUSE_MS} ms. The table is then read with a plain client: every key listed, the Parquet files
 * downloaded and read locally, pending multipart uploads listed.
 */
final class SeededWrite {

  private static final Logger LOG = LoggerFactory.getLogger(SeededWrite.class);
  static final long ROWS = 20_000;
  static final int TASKS = 4;
  static final int MAX_RECORDS_PER_FILE = 1_000;
  static final int JOB_RUNS = 3;
  private static final Pattern DATA_FILE = Pattern.compile("^(bucket=\\d+/)?part-[^/]*\\.parquet$");
  /** The job-abort marker a failed run of either committer keeps (hidden bookkeeping, a few hundred bytes). */
  private static final Pattern JOB_ABORT_MARKER =
      Pattern.compile("^(_objectcommit_direct|\\.objectcommit-staging)/[^/]+/job-aborted\\.json$");

  private SeededWrite() {
  }

  /** The Spark settings of a seeded run: the contender's, with S3A's FileSystem cache as users have it (on). */
  static Map<String, String> sparkConf(Map<String, String> contender) {
    Map<String, String> m = new LinkedHashMap<>(contender);
    m.put("spark.hadoop.fs.s3a.impl.disable.cache", "false");
    return m;
  }

  static WriteOutcome run(S3TestBucket bucket, CommitterContender contender, long seed, Path scratch,
      Resources.Sample first)
      throws IOException {
    boolean partitioned = seed % 2 == 1;
    long bufferFilesBefore = bufferFiles();
    String table = bucket.s3a("table");
    try (ProxiedBucket proxied = new ProxiedBucket(bucket)) {
      proxied.runStoreChecks();
      S3FaultProxy proxy = proxied.proxy();
      List<String> failures = new ArrayList<>();
      boolean succeeded = false;
      double seconds;
      long requests;
      String injected;
      int peak;
      long[] read;
      try (SparkSession spark = SparkSessions.local("seeded-write", "local[2,4]", proxied.s3aOptions(),
          sparkConf(contender.sparkConf()))) {
        proxy.setFaults(SeededFaults.plan(seed));
        proxy.resetCounts();
        proxy.resetPeakConnections();
        long t0 = System.nanoTime();
        for (int run = 1; run <= JOB_RUNS && !succeeded; run++) {
          try {
            write(spark, table, partitioned);
            succeeded = true;
          } catch (Exception e) { // SparkException is checked but not declared by Scala
            failures.add(Failures.root(e));
            LOG.warn("{} seed {}: job run {} failed: {}", contender.name(), seed, run, Failures.root(e));
            LOG.debug("job run failure", e);
            if (run < JOB_RUNS) {
              Failures.pause(SeededStream.RESTART_PAUSE_MS);
            }
          }
        }
        seconds = (System.nanoTime() - t0) / 1e9;
        requests = proxy.counts().total();
        injected = Failures.injected(proxy);
        peak = proxy.peakConnections();
        proxy.setFaults(FaultPlan.none());
        read = readBack(spark, bucket, scratch);
      } finally {
        FileSystem.closeAll();
      }
      Resources.Sample after = Resources.after(proxy, first);
      Listing listing = Listing.of(bucket);
      return new WriteOutcome(contender.name(), seed, partitioned, failures, succeeded, listing.dataFiles.size(),
          listing.successMarker, listing.strays, pendingUploads(bucket), read[0], read[1], read[2], seconds,
          requests, injected, peak, after, bufferFiles() - bufferFilesBefore);
    }
  }

  private static void write(SparkSession spark, String table, boolean partitioned) {
    Dataset<Row> ds = SmokeJob.dataset(spark, ROWS).repartition(TASKS);
    var writer = ds.write().mode(SaveMode.Append).option("maxRecordsPerFile", MAX_RECORDS_PER_FILE);
    if (partitioned) {
      writer = writer.partitionBy("bucket");
    }
    writer.parquet(table);
  }

  /** The keys under {@code table/}, relative to it, sorted into data files, the marker and the rest. */
  static final class Listing {
    final List<String> dataFiles = new ArrayList<>();
    final List<String> strays = new ArrayList<>();
    int abortMarkers;
    boolean successMarker;

    static Listing of(S3TestBucket bucket) {
      Listing l = new Listing();
      String base = bucket.prefix() + "table/";
      for (String key : bucket.listKeys("table/")) {
        String rel = key.substring(base.length());
        if (DATA_FILE.matcher(rel).matches()) {
          l.dataFiles.add(rel);
        } else if (rel.equals("_SUCCESS")) {
          l.successMarker = true;
        } else if (JOB_ABORT_MARKER.matcher(rel).matches()) {
          l.abortMarkers++; // a failed run's job-abort marker: kept by design (committer-common's JobAbortMarker)
        } else {
          l.strays.add(rel);
        }
      }
      return l;
    }
  }

  /** {rows, distinct ids, sum of ids} of the table's Parquet files, downloaded with the plain client. */
  private static long[] readBack(SparkSession spark, S3TestBucket bucket, Path scratch) throws IOException {
    Listing listing = Listing.of(bucket);
    if (listing.dataFiles.isEmpty()) {
      return new long[3];
    }
    Path dir = Files.createTempDirectory(scratch, "table");
    for (String rel : listing.dataFiles) {
      Path local = dir.resolve(rel);
      Files.createDirectories(local.getParent());
      Files.write(local, bucket.plain().getObject(bucket.name(), bucket.prefix() + "table/" + rel));
    }
    Row r = spark.read().parquet(dir.toString()).agg(org.apache.spark.sql.functions.count(lit(1)),
        countDistinct(col("id")), sum(col("id"))).first();
    return new long[] {r.getLong(0), r.getLong(1), r.isNullAt(2) ? 0 : r.getLong(2)};
  }

  /** Regular files under the staging committer's local buffer directories of the tests. */
  private static long bufferFiles() throws IOException {
    Path dir = Path.of(StagingCommitters.bufferDir());
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).count();
    }
  }

  static int pendingUploads(S3TestBucket bucket) {
    return bucket.plain().listMultipartUploads(bucket.name(), bucket.prefix()).size();
  }
}
