package io.objectcommit.bench;

import static org.apache.spark.sql.functions.col;

import io.objectcommit.it.SparkSessions;
import io.objectcommit.testsupport.S3Endpoint;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.S3TestSettings;
import io.objectcommit.testsupport.SparkCompat;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one checkpoint contender at one shuffle partition count: a stateful query (CSV files from a local
 * directory, count by {@code value % 1000}, update mode, {@code noop} sink, so that only the checkpoint touches
 * S3) with its checkpoint in a fresh bucket, on the run's state store ({@link StateStoreChoice}); background
 * state-store maintenance is off for every contender. Micro-batch 0 creates the checkpoint and is not measured; then each
 * of the measured micro-batches is timed from adding its input file to {@code processAllAvailable()} returning.
 * Checkpoint files are counted through the checkpoint location's own file system before and after the measured
 * batches (that listing is not counted as the contender's requests).
 */
final class CheckpointBenchmark {

  static final int KEYS = 1000;
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointBenchmark.class);

  /** On an external endpoint with a shared bucket, a fresh prefix in it instead of a new bucket per run. */
  private static final String SHARED_BUCKET = S3TestSettings.fromEnvironment().sharedBucket().orElse(null);

  private final S3Endpoint upstream;
  private final S3FaultProxy proxy;
  private final String master;
  private final Path workDir;
  private final Map<String, String> sparkConf;
  private int runs;

  /** {@code sparkConf}: the run's own Spark settings ({@link BenchSettings#sparkConf()}), after the contender's. */
  CheckpointBenchmark(S3Endpoint upstream, S3FaultProxy proxy, String master, Path workDir,
      Map<String, String> sparkConf) {
    this.upstream = upstream;
    this.proxy = proxy;
    this.master = master;
    this.workDir = workDir;
    this.sparkConf = sparkConf;
  }

  CheckpointResult run(CheckpointContender contender, int partitions, int batches, StateStoreChoice stateStore) {
    Map<String, String> conf = new LinkedHashMap<>(contender.sparkConf());
    conf.putAll(stateStore.sparkConf());
    conf.put("spark.sql.shuffle.partitions", Integer.toString(partitions));
    // State-store maintenance (snapshots, clean-up) runs on a JVM-wide timer, outside the micro-batches, at times
    // that depend on earlier contenders: off for every contender, so that the counts belong to the batches.
    conf.put("spark.sql.streaming.stateStore.maintenanceInterval", "1h");
    conf.putAll(sparkConf);
    BatchInput input = new BatchInput(workDir.resolve("input-" + (++runs)));
    try (S3TestBucket bucket = S3TestBucket.create(upstream, "bench-ckpt", SHARED_BUCKET);
        SparkSession spark = SparkSessions.local("objectcommit-bench-checkpoint", master,
            BenchFileSystems.cached(proxy.endpoint().s3aOptions()), conf)) {
      String location = contender.location().apply(bucket.name() + "/" + bucket.prefix());
      StreamingQuery q = SparkCompat.option(spark.readStream().schema("value LONG").option("maxFilesPerTrigger", 1)
          .csv(input.dir().toString())
          .groupBy(col("value").mod(KEYS).as("k")).count()
          .writeStream().outputMode("update").format("noop"), "checkpointLocation", location).start();
      try {
        input.addFile(0);
        q.processAllAvailable();
        org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(location);
        FileSystem fs = root.getFileSystem(spark.sparkContext().hadoopConfiguration());
        long filesBefore = countFiles(fs, root);
        proxy.resetCounts();
        List<Long> batchMs = new ArrayList<>();
        for (int i = 1; i <= batches; i++) {
          long t0 = System.nanoTime();
          input.addFile(i);
          q.processAllAvailable();
          batchMs.add((System.nanoTime() - t0) / 1_000_000);
        }
        Requests requests = contender.usesS3() ? Requests.of(proxy.counts()) : Requests.NONE;
        long lastBatch = lastBatchWithInput(q);
        long written = countFiles(fs, root) - filesBefore;
        if (lastBatch != batches) {
          throw new IllegalStateException(contender.name() + ": expected micro-batch " + batches
              + " to be the last one with input, was " + lastBatch);
        }
        LOG.debug("{} at {} partitions: {} files, {}", contender.name(), partitions, written, requests);
        return new CheckpointResult(partitions, contender.name(), batchMs, requests, written, stateStore);
      } finally {
        q.stop();
      }
    } catch (TimeoutException e) {
      throw new IllegalStateException(contender.name() + " at " + partitions + " partitions: the query did not stop", e);
    } catch (IOException e) {
      throw new UncheckedIOException(contender.name() + ": cannot list the checkpoint", e);
    } finally {
      BenchFileSystems.closeAll();
    }
  }

  /**
   * The last micro-batch that read input. (The last progress event is not it: after 10 s without new data, Spark
   * reports an idle event carrying the next batch's id.)
   */
  private static long lastBatchWithInput(StreamingQuery q) {
    long last = -1;
    for (StreamingQueryProgress p : q.recentProgress()) {
      if (p.numInputRows() > 0) {
        last = Math.max(last, p.batchId());
      }
    }
    return last;
  }

  private static long countFiles(FileSystem fs, org.apache.hadoop.fs.Path root) throws IOException {
    long n = 0;
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(root, true);
    while (it.hasNext()) {
      it.next();
      n++;
    }
    return n;
  }
}
