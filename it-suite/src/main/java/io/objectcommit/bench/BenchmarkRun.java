package io.objectcommit.bench;

import io.objectcommit.testsupport.NfsClientOptions;
import io.objectcommit.testsupport.NfsLikeMount;
import io.objectcommit.testsupport.S3Endpoint;
import io.objectcommit.testsupport.proxy.FaultPlan;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One benchmark run: every write contender on every shape, then every checkpoint contender at every partition
 * count with every state store, in a fixed order, all through one latency proxy (counts reset per contender, a fresh bucket each); then
 * {@code bench.md}, {@code bench.json} and {@code bench.svg} in the output directory. A contender that fails is
 * reported as such and the run goes on.
 */
public final class BenchmarkRun {

  private static final Logger LOG = LoggerFactory.getLogger(BenchmarkRun.class);

  private final BenchSettings settings;
  private final S3Endpoint upstream;
  private final String machine;

  /**
   * @param settings what to run
   * @param upstream the S3 endpoint (LocalStack) the proxy forwards to
   * @param machine how the reports describe the machine and endpoint
   */
  public BenchmarkRun(BenchSettings settings, S3Endpoint upstream, String machine) {
    this.settings = settings;
    this.upstream = upstream;
    this.machine = machine;
  }

  /**
   * Runs everything, writes the reports and returns the results.
   *
   * @throws IllegalArgumentException before anything runs, when a state store of the settings needs a newer Spark
   */
  public BenchResults run() {
    if (!settings.shufflePartitions().isEmpty()) {
      settings.stateStores().forEach(s -> s.requireSpark(org.apache.spark.package$.MODULE$.SPARK_VERSION()));
    }
    String date = ZonedDateTime.now().truncatedTo(ChronoUnit.SECONDS).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    Path out = settings.outputDir().toAbsolutePath();
    Path work = out.resolve("work-" + System.currentTimeMillis());
    List<WriteResult> writes = new ArrayList<>();
    List<CheckpointResult> checkpoints = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    try (S3FaultProxy proxy = S3FaultProxy.start(upstream)) {
      proxy.setFaults(FaultPlan.builder(1).latency(Duration.ofMillis(settings.latencyMs()), Duration.ZERO).build());
      Progress.say(String.format("%d ms added to every S3 request by the proxy on port %d; Spark %s%s",
          settings.latencyMs(), proxy.port(), settings.master(),
          settings.sparkConf().isEmpty() ? "" : "; for every contender: " + settings.sparkConf()));
      WriteBenchmark wb = new WriteBenchmark(upstream, proxy, settings.master(), CommitTimeLog.install(),
          settings.sparkConf());
      List<WriteContender> writeContenders = WriteContenders.all(work.resolve("staging-buffers"));
      for (WriteShape shape : settings.writeShapes()) {
        for (WriteContender c : writeContenders) {
          long t0 = System.nanoTime();
          try {
            WriteResult r = wb.run(shape, c);
            writes.add(r);
            Progress.say(String.format("write: %s, %s ... %.1f s (commit %.2f s, %,d requests)", c.name(),
                shape.label(), r.jobMs() / 1000.0, r.commitMs() / 1000.0, r.requests().total()), t0);
          } catch (RuntimeException e) {
            failed(failures, "write: " + c.name() + ", " + shape.label(), e);
          }
        }
      }
      CheckpointBenchmark cb = new CheckpointBenchmark(upstream, proxy, settings.master(), work,
          settings.sparkConf());
      NfsLikeMount nfs = settings.shufflePartitions().isEmpty() ? null : mountNfs(work, settings.nfsLatencyMs());
      try {
        List<CheckpointContender> ckptContenders = CheckpointContenders.all(mkdirs(work.resolve("efs")),
            nfs == null ? null : nfs.path(), settings.nfsLatencyMs());
        runCheckpoints(cb, ckptContenders, checkpoints, failures);
      } finally {
        closeNfs(nfs);
      }
    }
    BenchResults results = new BenchResults(settings, date, machine, writes, checkpoints, failures);
    write(out, results);
    return results;
  }

  private void runCheckpoints(CheckpointBenchmark cb, List<CheckpointContender> ckptContenders,
      List<CheckpointResult> checkpoints, List<String> failures) {
    for (int partitions : settings.shufflePartitions()) {
      for (StateStoreChoice store : settings.stateStores()) {
        for (CheckpointContender c : ckptContenders) {
          long t0 = System.nanoTime();
          String what = String.format("checkpoint: %s, %d partitions, %s", c.name(), partitions, store.label());
          try {
            CheckpointResult r = cb.run(c, partitions, settings.measuredBatches(), store);
            checkpoints.add(r);
            Progress.say(String.format("%s, %d batches ... %.2f s per batch, %,.0f requests per batch, %.2f per"
                + " file", what, r.batches(), r.meanBatchMs() / 1000.0, r.requestsPerBatch(), r.requestsPerFile()),
                t0);
          } catch (RuntimeException e) {
            failed(failures, what, e);
          }
        }
      }
    }
  }

  /**
   * The NFS-like mount of the "local-path backend on the NFS-like mount" contender (Linux default caching, the
   * given latency per round trip), or null where FUSE is unavailable (said on the console; not a failure).
   */
  static NfsLikeMount mountNfs(Path work, double latencyMs) {
    Optional<String> why = NfsLikeMount.unavailableReason();
    if (why.isPresent()) {
      Progress.say("no NFS-like mount contender: " + why.get());
      return null;
    }
    try {
      NfsLikeMount m = NfsLikeMount.mount(work.resolve("nfs-backing"), work.resolve("nfs-mount"),
          NfsClientOptions.linuxDefaults().withLatencyMs(latencyMs), work);
      Progress.say(String.format("NFS-like mount %s: %s ms per round trip to its server", m.path(), latencyMs));
      return m;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot mount the NFS-like file system", e);
    }
  }

  static void closeNfs(NfsLikeMount nfs) {
    if (nfs == null) {
      return;
    }
    try {
      Progress.say("NFS-like mount round trips in all: " + nfs.roundTrips());
      nfs.close();
    } catch (IOException e) {
      LOG.warn("unmounting {} failed: {}", nfs.path(), e.toString());
    }
  }

  /** The Markdown tables of {@code results}. */
  public static String markdown(BenchResults results) {
    return MarkdownReport.render(results);
  }

  static void write(Path out, BenchResults results) {
    ReportFiles.write(out, "bench", MarkdownReport.render(results), Json.write(results.toMap()),
        BenchCharts.render(results));
  }

  /** A contender that failed: reported (with its stack trace in the log) and in the results; the run goes on. */
  private static void failed(List<String> failures, String what, RuntimeException e) {
    LOG.error("{} failed", what, e);
    failures.add(what + ": " + e);
    Progress.say(what + " ... FAILED: " + e);
  }

  static Path mkdirs(Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
  }
}
