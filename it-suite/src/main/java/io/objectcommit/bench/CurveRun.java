package io.objectcommit.bench;

import io.objectcommit.testsupport.NfsLikeMount;
import io.objectcommit.testsupport.S3Endpoint;
import io.objectcommit.testsupport.proxy.FaultPlan;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cost-curve run ({@code bin/run-cost-curves}): the spread writes size by size, each size for every selected
 * write contender that {@link CostBudget} lets run; then the one-task write; then the checkpoints partition count
 * by partition count, Spark's default state store. All through one latency proxy and the benchmark's own runners
 * ({@link WriteBenchmark}, {@link CheckpointBenchmark}); the used heap is sampled during every write
 * ({@link HeapSampler}) and its peak within the job commit kept. Writes {@code curves.md}, {@code curves.json} and
 * {@code curves.svg}. A contender that fails is reported as such and not run at larger sizes; the run goes on.
 */
public final class CurveRun {

  private static final Logger LOG = LoggerFactory.getLogger(CurveRun.class);
  private static final Pattern LOCAL_SLOTS = Pattern.compile("local\\[(\\d+)]");

  private final CurveSettings settings;
  private final S3Endpoint upstream;
  private final String machine;
  private final CostBudget budget;

  /**
   * @param settings what to run
   * @param upstream the S3 endpoint (LocalStack) the proxy forwards to
   * @param machine how the reports describe the machine, endpoint and Spark
   */
  public CurveRun(CurveSettings settings, S3Endpoint upstream, String machine) {
    this.settings = settings;
    this.upstream = upstream;
    this.machine = machine;
    this.budget = new CostBudget(settings.budgetSeconds());
  }

  /** Runs everything, writes the reports and returns the results. */
  public CurveResults run() {
    String date = ZonedDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    Path out = settings.outputDir().toAbsolutePath();
    Path work = out.resolve("curves-work-" + System.currentTimeMillis());
    List<CurveWrite> writes = new ArrayList<>();
    List<CurveCheckpoint> checkpoints = new ArrayList<>();
    try (S3FaultProxy proxy = S3FaultProxy.start(upstream)) {
      proxy.setFaults(FaultPlan.builder(1).latency(Duration.ofMillis(settings.latencyMs()), Duration.ZERO).build());
      Progress.say(String.format("cost curves: %d ms added to every S3 request; Spark %s; budget %.0f s per size",
          settings.latencyMs(), settings.master(), settings.budgetSeconds()));
      CommitTimeLog log = CommitTimeLog.install();
      runWrites(new WriteBenchmark(upstream, proxy, settings.master(), log, Map.of()), log,
          WriteContenders.all(work.resolve("staging-buffers")).stream()
              .filter(c -> CurveSettings.selected(settings.writeContenders(), c.name())).toList(), writes);
      if (!settings.partitions().isEmpty()) {
        runCheckpoints(new CheckpointBenchmark(upstream, proxy, settings.master(), work, Map.of()), work,
            checkpoints);
      }
    }
    CurveResults results = new CurveResults(settings, date, machine, writes, checkpoints);
    write(out, results);
    return results;
  }

  private void runWrites(WriteBenchmark wb, CommitTimeLog log, List<WriteContender> contenders,
      List<CurveWrite> writes) {
    Map<String, CurveWrite> last = new HashMap<>();
    for (int n : settings.files()) {
      WriteShape shape = CurveSettings.spread(n);
      for (WriteContender c : contenders) {
        CurveWrite before = last.get(c.name());
        CostBudget.Decision d = before == null ? budget.first()
            : !before.measured() ? budget.afterSkip(before.shape().label())
            : budget.write(before.result().jobMs() / 1000.0, before.shape().files(), n);
        CurveWrite w = write(wb, log, CurveWrite.SPREAD, shape, c, d);
        writes.add(w);
        last.put(c.name(), w);
      }
    }
    WriteShape oneTask = settings.oneTask();
    if (oneTask == null) {
      return;
    }
    int slots = slots(settings.master());
    for (WriteContender c : contenders) {
      CurveWrite measured = writes.stream().filter(w -> w.contender().equals(c.name()) && w.measured())
          .reduce((a, b) -> b).orElse(null);
      CostBudget.Decision d = settings.files().isEmpty() ? budget.first()
          : measured == null ? budget.afterSkip(CurveSettings.spread(settings.files().get(0)).label())
          : budget.oneTask(measured.result().jobMs() / 1000.0, measured.shape().files(), measured.shape().tasks(),
              slots, oneTask.files());
      writes.add(write(wb, log, CurveWrite.ONE_TASK, oneTask, c, d));
    }
  }

  private CurveWrite write(WriteBenchmark wb, CommitTimeLog log, String curve, WriteShape shape, WriteContender c,
      CostBudget.Decision d) {
    String what = "write: " + c.name() + ", " + shape.label() + (curve.equals(CurveWrite.ONE_TASK) ? "" : " ("
        + shape.tasks() + (shape.tasks() == 1 ? " task)" : " tasks)"));
    if (!d.run()) {
      Progress.say(what + " ... skipped: " + d.reason());
      return new CurveWrite(curve, shape, c.name(), d, null, null, null);
    }
    long t0 = System.nanoTime();
    try (HeapSampler heap = HeapSampler.start()) {
      WriteResult r = wb.run(shape, c);
      long end = log.lastCommitEndMillis();
      HeapSampler.Peak peak = heap.peak(end - r.commitMs() - HeapSampler.INTERVAL_MS,
          end + HeapSampler.INTERVAL_MS);
      Progress.say(String.format(Locale.ROOT, "%s ... %.1f s (commit %.2f s, %,d requests, %.2f per file, heap"
          + " peak in commit %,d MB)", what, r.jobMs() / 1000.0, r.commitMs() / 1000.0, r.requests().total(),
          r.requestsPerFile(), peak.peakBytes() >> 20), t0);
      return new CurveWrite(curve, shape, c.name(), d, r, peak, null);
    } catch (RuntimeException e) {
      LOG.error("{} failed", what, e);
      Progress.say(what + " ... FAILED: " + e);
      return new CurveWrite(curve, shape, c.name(), d, null, null, e.toString());
    }
  }

  private void runCheckpoints(CheckpointBenchmark cb, Path work, List<CurveCheckpoint> checkpoints) {
    NfsLikeMount nfs = BenchmarkRun.mountNfs(work, BenchSettings.NFS_LATENCY_MS_DEFAULT);
    try {
      List<CheckpointContender> contenders = CheckpointContenders.all(BenchmarkRun.mkdirs(work.resolve("efs")),
          nfs == null ? null : nfs.path(), BenchSettings.NFS_LATENCY_MS_DEFAULT).stream()
          .filter(c -> CurveSettings.selected(settings.checkpointContenders(), c.name())).toList();
      Map<String, CurveCheckpoint> last = new HashMap<>();
      for (int p : settings.partitions()) {
        for (CheckpointContender c : contenders) {
          CurveCheckpoint before = last.get(c.name());
          CostBudget.Decision d = before == null ? budget.first()
              : !before.measured() ? budget.afterSkip(before.partitions() + " partitions")
              : budget.checkpoint(before.result().meanBatchMs() / 1000.0, before.partitions(), p,
                  settings.batches());
          CurveCheckpoint point = checkpoint(cb, c, p, d);
          checkpoints.add(point);
          last.put(c.name(), point);
        }
      }
    } finally {
      BenchmarkRun.closeNfs(nfs);
    }
  }

  private CurveCheckpoint checkpoint(CheckpointBenchmark cb, CheckpointContender c, int partitions,
      CostBudget.Decision d) {
    String what = String.format(Locale.ROOT, "checkpoint: %s, %,d partitions", c.name(), partitions);
    if (!d.run()) {
      Progress.say(what + " ... skipped: " + d.reason());
      return new CurveCheckpoint(partitions, c.name(), d, null, null);
    }
    long t0 = System.nanoTime();
    try {
      CheckpointResult r = cb.run(c, partitions, settings.batches(), StateStoreChoice.DEFAULT);
      Progress.say(String.format(Locale.ROOT, "%s ... %.2f s per batch, %,.0f requests per batch, %.2f per file",
          what, r.meanBatchMs() / 1000.0, r.requestsPerBatch(), r.requestsPerFile()), t0);
      return new CurveCheckpoint(partitions, c.name(), d, r, null);
    } catch (RuntimeException e) {
      LOG.error("{} failed", what, e);
      Progress.say(what + " ... FAILED: " + e);
      return new CurveCheckpoint(partitions, c.name(), d, null, e.toString());
    }
  }

  /** Task slots of a Spark master: N of {@code local[N]}, else the machine's cores. */
  static int slots(String master) {
    Matcher m = LOCAL_SLOTS.matcher(master);
    return m.matches() ? Integer.parseInt(m.group(1)) : Runtime.getRuntime().availableProcessors();
  }

  static void write(Path out, CurveResults results) {
    ReportFiles.write(out, "curves", CurveReport.render(results), Json.write(results.toMap()),
        CurveChart.render(results));
  }
}
