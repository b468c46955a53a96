package io.objectcommit.it.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.objectcommit.it.cluster.ClusterJobs.Committer;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.SparkStandaloneCluster;
import io.objectcommit.testsupport.SparkSubmission;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Several write scenarios as the jobs of ONE {@code spark-submit} application ({@code cluster_job.py plan}): the
 * driver runs them one after the other, each with its own output path, markers and checks, so the driver's start,
 * the SparkContext and the executors' start (and their Python workers) are paid once. Between two scenarios the
 * application waits until the test has checked what the previous one left in the local buffer directory.
 *
 * <p>Every scenario is reported by one line the CI log can be read by:
 * {@code CLUSTER-SCENARIO scenario=<s> committer=<c> rows=<n> files=<f> result=<exact|refused|FAILED> seconds=<job>},
 * and the application by {@code CLUSTER-APPLICATION name=<a> scenarios=<n> failed=<n> seconds=<wall, with the
 * driver's start and stop>}. A failing scenario does not stop the others; the failures are reported together.
 */
final class ScenarioApplication {

  private static final Logger LOG = LoggerFactory.getLogger(ScenarioApplication.class);
  private static final Duration SCENARIO_TIMEOUT = Duration.ofMinutes(5);
  private static final Duration BUFFER_CLEANUP = Duration.ofSeconds(20);

  private final SparkStandaloneCluster cluster;
  private final String name;
  private final Committer committer;
  private final S3TestBucket bucket;
  private final Path dir;
  private final Path buffer;
  private final List<String> settings = new ArrayList<>();
  private final List<WriteScenario> scenarios = new ArrayList<>();

  ScenarioApplication(SparkStandaloneCluster cluster, String name, Committer committer, S3TestBucket bucket)
      throws IOException {
    this.cluster = cluster;
    this.name = name + "-" + committer.name().toLowerCase();
    this.committer = committer;
    this.bucket = bucket;
    this.dir = Files.createDirectories(cluster.dir().resolve("scenarios").resolve(this.name + "-"
        + System.currentTimeMillis()));
    this.buffer = dir.resolve("staging-buffer");
    settings.add(committer.setting);
  }

  ScenarioApplication setting(String s) {
    settings.add(s);
    return this;
  }

  /** A new scenario of this application (added to its plan, run in the order added). */
  WriteScenario scenario(String scenario) throws IOException {
    return scenario(scenario, committer);
  }

  /** A new scenario whose job uses {@code jobCommitter}, switched to with session settings when it differs. */
  WriteScenario scenario(String scenario, Committer jobCommitter) throws IOException {
    WriteScenario s = new WriteScenario(scenario, jobCommitter, committer, bucket, dir);
    scenarios.add(s);
    return s;
  }

  /**
   * Submits the application, SIGKILLs executors where scenarios ask for it, checks every scenario, and returns
   * the failures (empty when every scenario passed).
   */
  List<String> run() throws Exception {
    long t0 = System.nanoTime();
    Path plan = dir.resolve("plan.json");
    ClusterJobs.JSON.writerWithDefaultPrettyPrinter().writeValue(plan.toFile(),
        scenarios.stream().map(s -> s.entry).collect(Collectors.toList()));
    List<String> failures = new ArrayList<>();
    List<JsonNode> results = new ArrayList<>();
    List<Future<String>> checks = new ArrayList<>();
    int expectedExit = scenarios.stream().anyMatch(s -> s.expectFailure) ? 3 : 0;
    if (scenarios.stream().anyMatch(s -> s.committer == Committer.STAGING)) {
      settings.add("spark.hadoop.fs.objectcommit.staging.buffer.dirs=" + buffer);
    }
    // a scenario's output is checked while the application runs the next one (its own output path)
    ExecutorService checker = Executors.newSingleThreadExecutor();
    try {
      try (SparkSubmission app = cluster.submit(name, ClusterJobs.options(bucket, settings), ClusterJobs.app(),
          List.of("plan", plan.toString()))) {
        for (int i = 0; i < scenarios.size(); i++) {
          WriteScenario s = scenarios.get(i);
          if (i > 0) {
            Files.writeString(s.markers.resolve("go"), "");
          }
          try {
            if (s.killPartition >= 0) {
              killExecutor(app, s);
            }
            JsonNode result = awaitResult(app, s);
            results.add(result);
            if (i < scenarios.size() - 1) {
              checkBufferEmpty(s, BUFFER_CLEANUP);
            }
            checks.add(checker.submit(() -> s.check.check(s, result)));
          } catch (AssertionError | IOException e) {
            if (results.size() == i) {
              results.add(null);
            }
            checks.add(null);
            failures.add(s.name + ": " + e.getMessage());
            LOG.debug("{} failed", s.name, e);
          }
        }
        int code = app.await(SCENARIO_TIMEOUT);
        if (code != expectedExit) {
          failures.add(name + ": spark-submit exit " + code + " (expected " + expectedExit + ")");
        }
        try {
          // the last scenario once the application ended (as when a user's job ends)
          checkBufferEmpty(scenarios.get(scenarios.size() - 1), Duration.ZERO);
        } catch (AssertionError e) {
          failures.add(e.getMessage());
        }
        if (!failures.isEmpty()) {
          failures.add("driver log " + app.log() + ":\n" + app.logTail(40));
        }
      }
      for (int i = 0; i < scenarios.size(); i++) {
        WriteScenario s = scenarios.get(i);
        JsonNode result = results.get(i);
        String line = "rows=" + s.rows + " files=? result=FAILED";
        if (checks.get(i) != null) {
          try {
            line = checks.get(i).get(SCENARIO_TIMEOUT.toMinutes(), TimeUnit.MINUTES);
          } catch (ExecutionException e) {
            failures.add(0, s.name + ": " + e.getCause());
            LOG.debug("{} failed its check", s.name, e.getCause());
          }
        }
        LOG.info("CLUSTER-SCENARIO scenario={} committer={} {} seconds={}", s.scenario,
            s.committer.name().toLowerCase(), line, result == null ? "?" : result.path("seconds").asText("?"));
      }
    } finally {
      checker.shutdownNow();
    }
    failures.stream().filter(f -> !f.startsWith("driver log")).forEach(f -> LOG.warn("{}: {}", name, f));
    LOG.info("CLUSTER-APPLICATION name={} scenarios={} failed={} seconds={}", name, scenarios.size(),
        failures.stream().filter(f -> !f.startsWith("driver log")).count(),
        String.format("%.1f", (System.nanoTime() - t0) / 1e9));
    return failures;
  }

  /**
   * The staging committer's local buffer directory holds no file after a scenario (waiting up to {@code grace}:
   * an attempt Spark kills once the job has ended, such as the loser of a speculative race, removes its files
   * while the next job starts).
   */
  private void checkBufferEmpty(WriteScenario s, Duration grace) throws Exception {
    if (s.committer != Committer.STAGING) {
      return;
    }
    long deadline = System.nanoTime() + grace.toNanos();
    List<Path> left = CommitterClusterIT.leftovers(buffer);
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(100);
      left = CommitterClusterIT.leftovers(buffer);
    }
    if (!left.isEmpty()) {
      throw new AssertionError(s.name + ": local buffer files left after the job: " + left);
    }
  }

  private static JsonNode awaitResult(SparkSubmission app, WriteScenario s) throws Exception {
    long deadline = System.nanoTime() + SCENARIO_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      Optional<JsonNode> r = ClusterJobs.result(s.markers);
      if (r.isPresent()) {
        return r.get();
      }
      if (!app.isRunning()) {
        // the result may have been written just before the exit
        return ClusterJobs.result(s.markers).orElseThrow(() -> new AssertionError("the application ended"
            + " before the scenario's result"));
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no result after " + SCENARIO_TIMEOUT);
  }

  /**
   * SIGKILLs the executor running the first attempt of the scenario's task once at least the given number of its
   * files exist (uploaded, for the direct committer; in the local buffer, for staging).
   */
  private void killExecutor(SparkSubmission app, WriteScenario s) throws Exception {
    int partition = s.killPartition;
    LongSupplier written = s.committer == Committer.DIRECT
        ? () -> PlainOutputCheck.dataObjectsOf(bucket, s.out, partition)
        : () -> localFilesOf(partition);
    long pid = -1;
    long deadline = System.nanoTime() + SCENARIO_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline && app.isRunning() && ClusterJobs.result(s.markers).isEmpty()) {
      if (pid < 0) {
        pid = s.attempts().stream().filter(a -> a.get("partition").asInt() == partition
            && a.get("attempt").asInt() == 0).mapToLong(a -> a.get("executor_pid").asLong()).findFirst()
            .orElse(-1);
      }
      if (pid > 0 && written.getAsLong() >= s.killAfterFiles) {
        break;
      }
      Thread.sleep(20);
    }
    if (pid <= 0 || !app.isRunning() || ClusterJobs.result(s.markers).isPresent()) {
      throw new AssertionError("no executor to kill: task " + partition + " attempts " + s.attempts());
    }
    if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
      throw new AssertionError("executor " + pid + " not alive");
    }
    long before = written.getAsLong();
    SparkSubmission.kill(pid);
    LOG.info("{}: executor {} SIGKILLed with {} files of task {} written", s.name, pid, before, partition);
  }

  private long localFilesOf(int partition) {
    if (!Files.isDirectory(buffer)) {
      return 0;
    }
    try (Stream<Path> s = Files.walk(buffer)) {
      return s.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith(String.format("part-%05d-", partition)) && n.endsWith(".parquet")).count();
    } catch (IOException | UncheckedIOException racing) {
      return 0; // the committer moves and deletes files while we walk
    }
  }
}
