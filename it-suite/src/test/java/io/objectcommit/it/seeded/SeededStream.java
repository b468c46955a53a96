package io.objectcommit.it.seeded;

import io.objectcommit.checkpoint.CheckpointMaintenance;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.CheckpointContender;
import io.objectcommit.it.faults.CountingQuery;
import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.it.faults.StreamInput;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.FaultPlan;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import io.objectcommit.testsupport.proxy.SeededFaults;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One seeded streaming run: the stateful query of {@link CountingQuery} (count by key, complete mode) over
 * {@value #FILES} input files, one micro-batch each, its checkpoint on the contender's location, every request
 * through the proxy under {@link SeededFaults#plan(long)}. When the query fails it is restarted from its
 * checkpoint, as a supervisor would, after {@value #RESTART_PAUSE_MS} ms, up to {@value #MAX_RESTARTS} times. Afterwards: the final state's counts
 * by key, the checkpoint tool's {@code verify} (on {@code ckpt://}, with a plain client), pending uploads.
 */
final class SeededStream {

  private static final Logger LOG = LoggerFactory.getLogger(SeededStream.class);
  static final int FILES = 6;
  static final int MAX_RESTARTS = 4;
  /** A supervisor's pause before restarting a failed query: longer than the plan's listing and 404 windows. */
  static final long RESTART_PAUSE_MS = 5_000;

  private SeededStream() {
  }

  static CheckpointOutcome run(S3TestBucket bucket, CheckpointContender contender, long seed, Path scratch,
      Resources.Sample first)
      throws IOException {
    StreamInput in = new StreamInput(Files.createTempDirectory(scratch, "input"));
    Map<String, String> conf = new LinkedHashMap<>(SeededWrite.sparkConf(contender.sparkConf()));
    conf.put("spark.hadoop.fs.ckpt.impl.disable.cache", "false");
    try (ProxiedBucket proxied = new ProxiedBucket(bucket)) {
      proxied.runStoreChecks();
      S3FaultProxy proxy = proxied.proxy();
      String checkpoint = contender.location(proxied, "stream/checkpoint");
      List<String> failures = new ArrayList<>();
      boolean finished = false;
      double seconds;
      long requests;
      String injected;
      int peak;
      try (SparkSession spark = SparkSessions.local("seeded-stream", "local[2,4]", proxied.s3aOptions(), conf)) {
        CountingQuery.clear();
        proxy.setFaults(SeededFaults.plan(seed));
        proxy.resetCounts();
        proxy.resetPeakConnections();
        long t0 = System.nanoTime();
        int added = 0;
        StreamingQuery q = null;
        while (!finished && failures.size() <= MAX_RESTARTS) {
          try {
            if (q == null) {
              q = CountingQuery.start(spark, in.dir(), checkpoint);
            }
            if (added < FILES) {
              in.addFile(added++);
            }
            q.processAllAvailable();
            finished = added == FILES;
          } catch (Exception e) { // StreamingQueryException is checked but not declared by Scala
            failures.add(Failures.root(e));
            LOG.warn("{} seed {}: the query failed ({}), restarting it", contender.name(), seed, Failures.root(e));
            LOG.debug("query failure", e);
            stop(q);
            q = null;
            Failures.pause(RESTART_PAUSE_MS);
          }
        }
        stop(q);
        seconds = (System.nanoTime() - t0) / 1e9;
        requests = proxy.counts().total();
        injected = Failures.injected(proxy);
        peak = proxy.peakConnections();
        proxy.setFaults(FaultPlan.none());
      } finally {
        FileSystem.closeAll();
      }
      Resources.Sample after = Resources.after(proxy, first);
      List<String> problems = checkpoint.startsWith("ckpt://") ? verify(bucket, contender, checkpoint) : null;
      return new CheckpointOutcome(contender.name(), seed, failures, finished, CountingQuery.lastCounts(),
          StreamInput.expectedCounts(FILES), CountingQuery.batches(), problems, SeededWrite.pendingUploads(bucket),
          seconds, requests, injected, peak, after);
    }
  }

  private static void stop(StreamingQuery q) {
    if (q == null) {
      return;
    }
    try {
      q.stop();
    } catch (Exception e) { // TimeoutException, declared by Scala as checked
      LOG.warn("stopping the query: {}", Failures.root(e));
    }
  }

  /** {@code objectcommit checkpoint verify} of the checkpoint, straight to the store (not through the proxy). */
  private static List<String> verify(S3TestBucket bucket, CheckpointContender contender, String checkpoint)
      throws IOException {
    Configuration conf = new Configuration();
    bucket.s3aOptions().forEach(conf::set);
    contender.sparkConf().forEach((k, v) -> {
      if (k.startsWith("spark.hadoop.")) {
        conf.set(k.substring("spark.hadoop.".length()), v);
      }
    });
    ByteArrayOutputStream report = new ByteArrayOutputStream();
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new org.apache.hadoop.fs.Path(checkpoint), conf);
        PrintStream out = new PrintStream(report, true, StandardCharsets.UTF_8)) {
      List<String> problems = m.verify(out);
      LOG.info("checkpoint verify of {}:\n{}", checkpoint, report.toString(StandardCharsets.UTF_8));
      return problems;
    }
  }
}
