package io.objectcommit.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.objectcommit.it.cluster.ClusterJobs.Committer;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.SparkStandaloneCluster;
import io.objectcommit.testsupport.SparkSubmission;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Both committers on a standalone cluster (master, two workers, each executor its own JVM), jobs submitted with
 * spark-submit as users submit them, the output checked by {@link PlainOutputCheck} (plain S3 client,
 * parquet-hadoop): a task attempt that fails halfway; an executor JVM SIGKILLed mid-write after some of its files
 * were written (with {@code maxRecordsPerFile}, and with {@code partitionBy}); speculation with a slow task.
 * One cluster for the class; after it stops, no process of it is left.
 */
@S3IntegrationTest
@Tag("cluster")
class CommitterClusterIT {

  private static final Logger LOG = LoggerFactory.getLogger(CommitterClusterIT.class);
  private static final Duration JOB_TIMEOUT = Duration.ofMinutes(5);
  private static SparkStandaloneCluster cluster;
  private static Path app;

  @BeforeAll
  static void startCluster() throws IOException {
    cluster = ClusterJobs.startCluster();
    app = ClusterJobs.app();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
      assertEquals(List.of(), cluster.liveProcesses().stream().map(SparkStandaloneCluster::commandLine)
          .collect(Collectors.toList()), "processes of the cluster left after it stopped");
    }
  }

  @Tag(ClusterJobs.FULL_SET)
  @ParameterizedTest
  @EnumSource(Committer.class)
  void taskAttemptFailsHalfway(Committer committer, S3TestBucket bucket) throws Exception {
    Job job = new Job(committer, bucket, "failed-task").rows(2000).partitions(4).arg("--max-records", "100")
        .arg("--fail-partition", "1").arg("--fail-at", "350");
    job.runToSuccess();
    assertTrue(job.attemptNumbers(1).containsAll(List.of(0, 1)), "partition 1 ran twice: " + job.attempts());
    job.verify(false);
  }

  @Tag(ClusterJobs.FULL_SET)
  @ParameterizedTest
  @EnumSource(Committer.class)
  void executorKilledMidWriteWithMaxRecordsPerFile(Committer committer, S3TestBucket bucket) throws Exception {
    Job job = new Job(committer, bucket, "killed-max-records").rows(3000).partitions(2)
        .arg("--max-records", "50").arg("--pace-ms", "3");
    job.runKillingExecutorOf(0, 3);
    job.verify(false);
  }

  @Test
  void executorKilledMidWriteWithPartitionByStaging(S3TestBucket bucket) throws Exception {
    executorKilledMidWriteWithPartitionBy(Committer.STAGING, bucket);
  }

  @Test
  @Tag(ClusterJobs.FULL_SET)
  void executorKilledMidWriteWithPartitionByDirect(S3TestBucket bucket) throws Exception {
    executorKilledMidWriteWithPartitionBy(Committer.DIRECT, bucket);
  }

  private void executorKilledMidWriteWithPartitionBy(Committer committer, S3TestBucket bucket) throws Exception {
    Job job = new Job(committer, bucket, "killed-partition-by").rows(4000).partitions(2)
        .arg("--partition-by").arg("--max-records", "20").arg("--pad", "400");
    job.runKillingExecutorOf(0, 3);
    job.verify(true);
  }

  @Tag(ClusterJobs.FULL_SET)
  @Test
  void speculationWithSlowTaskStagingIsExact(S3TestBucket bucket) throws Exception {
    Job job = speculative(new Job(Committer.STAGING, bucket, "speculation-staging"));
    job.runToSuccess();
    assertTrue(job.attemptNumbers(0).contains(1), "a speculative copy of task 0 ran: " + job.attempts());
    job.verify(false);
  }

  @Tag(ClusterJobs.FULL_SET)
  @Test
  void speculationWithDirectIsRefused(S3TestBucket bucket) throws Exception {
    Job job = speculative(new Job(Committer.DIRECT, bucket, "speculation-direct"));
    int code = job.run(JOB_TIMEOUT);
    assertEquals(3, code, ClusterJobs.describe(job.submission, code));
    JsonNode result = ClusterJobs.result(job.markers).orElseThrow();
    List<String> types = new ArrayList<>();
    result.get("exceptions").forEach(n -> types.add(n.asText()));
    assertTrue(types.contains("io.objectcommit.direct.SpeculationNotSupportedException"), types.toString());
    PlainOutputCheck.verifyEmpty(bucket, job.out);
  }

  @Tag(ClusterJobs.FULL_SET)
  @Test
  void speculationWithDirectClassicFallbackIsExact(S3TestBucket bucket) throws Exception {
    Job job = speculative(new Job(Committer.DIRECT, bucket, "speculation-direct-classic"))
        .setting("spark.hadoop.fs.objectcommit.direct.on-speculation=classic");
    job.runToSuccess();
    assertTrue(job.attemptNumbers(0).contains(1), "a speculative copy of task 0 ran: " + job.attempts());
    // Rows exact. Stock behaviour of the classic committer (Hadoop's FileOutputCommitter over S3A), recorded in
    // docs/reliability.md: the attempt Spark kills once its copy has won closes its writer while aborting, and
    // S3A uploads on close, so its file can land under _temporary/ after job commit cleaned it (hidden from
    // readers by the leading '_', but an object nobody deletes).
    List<String> late = new ArrayList<>();
    int files = PlainOutputCheck.verify(bucket, job.out, job.rows, false, job.markers.getParent().resolve("read"),
        rel -> rel.startsWith("_temporary/"), late);
    assertEquals(4, files);
    LOG.info("{}: 400 rows in {} files, exact; left under _temporary/ by the killed attempt: {}", job.name, files,
        late);
  }

  /** Task 0's first attempt takes 40 s; the others are quick, so Spark starts a copy on the other worker. */
  private static Job speculative(Job job) {
    return job.rows(400).partitions(4).arg("--slow-partition", "0").arg("--slow-seconds", "40")
        .setting("spark.speculation=true").setting("spark.speculation.interval=200ms")
        .setting("spark.speculation.multiplier=1.5").setting("spark.speculation.quantile=0.5")
        .setting("spark.speculation.minTaskRuntime=1s");
  }

  /** One job of a scenario: its settings, arguments, markers and output. */
  private static final class Job {
    final Committer committer;
    final S3TestBucket bucket;
    final String name;
    final String out;
    final Path markers;
    final Path buffer;
    final List<String> settings = new ArrayList<>();
    final List<String> args = new ArrayList<>();
    long rows;
    SparkSubmission submission;

    Job(Committer committer, S3TestBucket bucket, String scenario) throws IOException {
      this.committer = committer;
      this.bucket = bucket;
      this.name = scenario + "-" + committer.name().toLowerCase();
      this.out = "tables/" + name;
      Path dir = Files.createDirectories(cluster.dir().resolve("scenarios").resolve(name + "-"
          + System.currentTimeMillis()));
      this.markers = Files.createDirectories(dir.resolve("markers"));
      this.buffer = dir.resolve("staging-buffer");
      settings.add(committer.setting);
      if (committer == Committer.STAGING) {
        settings.add("spark.hadoop.fs.objectcommit.staging.buffer.dirs=" + buffer);
      }
    }

    Job rows(long n) {
      rows = n;
      return arg("--rows", Long.toString(n));
    }

    Job partitions(int n) {
      return arg("--partitions", Integer.toString(n));
    }

    Job arg(String... a) {
      args.addAll(List.of(a));
      return this;
    }

    Job setting(String s) {
      settings.add(s);
      return this;
    }

    SparkSubmission start() throws IOException {
      List<String> appArgs = new ArrayList<>(List.of("write", bucket.s3a(out), markers.toString()));
      appArgs.addAll(args);
      submission = cluster.submit(name, ClusterJobs.options(bucket, settings), app, appArgs);
      return submission;
    }

    int run(Duration timeout) throws IOException {
      try (SparkSubmission s = start()) {
        return s.await(timeout);
      }
    }

    void runToSuccess() throws IOException {
      long t0 = System.nanoTime();
      int code = run(JOB_TIMEOUT);
      assertEquals(0, code, ClusterJobs.describe(submission, code));
      LOG.info("{}: job done in {} ms", name, (System.nanoTime() - t0) / 1_000_000);
    }

    /**
     * Runs the job and SIGKILLs the executor running the first attempt of task {@code partition} once at least
     * {@code files} of its files exist (uploaded, for the direct committer; in the local buffer, for staging).
     */
    void runKillingExecutorOf(int partition, int files) throws Exception {
      long t0 = System.nanoTime();
      LongSupplier written = committer == Committer.DIRECT
          ? () -> PlainOutputCheck.dataObjectsOf(bucket, out, partition)
          : () -> localFilesOf(partition);
      try (SparkSubmission s = start()) {
        long pid = -1;
        long deadline = System.nanoTime() + JOB_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline && s.isRunning()) {
          if (pid < 0) {
            pid = attempts().stream().filter(a -> a.get("partition").asInt() == partition
                && a.get("attempt").asInt() == 0).mapToLong(a -> a.get("executor_pid").asLong()).findFirst()
                .orElse(-1);
          }
          if (pid > 0 && written.getAsLong() >= files) {
            break;
          }
          Thread.sleep(20);
        }
        assertTrue(pid > 0 && s.isRunning(), "no executor to kill: task " + partition + " attempts " + attempts());
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "executor " + pid + " alive");
        long before = written.getAsLong();
        SparkSubmission.kill(pid);
        LOG.info("{}: executor {} SIGKILLed with {} files of task {} written", name, pid, before, partition);
        int code = s.await(JOB_TIMEOUT);
        assertEquals(0, code, ClusterJobs.describe(s, code));
      }
      List<Integer> numbers = attemptNumbers(partition);
      assertTrue(numbers.stream().anyMatch(n -> n > 0), "task " + partition + " ran again: " + attempts());
      LOG.info("{}: job with a killed executor done in {} ms", name, (System.nanoTime() - t0) / 1_000_000);
    }

    private long localFilesOf(int partition) {
      if (!Files.isDirectory(buffer)) {
        return 0;
      }
      try (Stream<Path> s = Files.walk(buffer)) {
        return s.map(p -> p.getFileName().toString())
            .filter(n -> n.startsWith(String.format("part-%05d-", partition)) && n.endsWith(".parquet")).count();
      } catch (IOException | java.io.UncheckedIOException racing) {
        return 0; // the committer moves and deletes files while we walk
      }
    }

    List<JsonNode> attempts() throws IOException {
      return ClusterJobs.attempts(markers);
    }

    List<Integer> attemptNumbers(int partition) throws IOException {
      return attempts().stream().filter(a -> a.get("partition").asInt() == partition)
          .map(a -> a.get("attempt").asInt()).collect(Collectors.toList());
    }

    void verify(boolean partitioned) throws IOException {
      int files = PlainOutputCheck.verify(bucket, out, rows, partitioned, markers.getParent().resolve("read"));
      assertNotEquals(0, files);
      if (committer == Committer.STAGING) {
        assertEquals(List.of(), leftovers(buffer), "local buffer files left after the job");
      }
      LOG.info("{}: {} rows in {} files, exact; no stray object, no pending upload", name, rows, files);
    }
  }

  /** Regular files left under a directory (none when it does not exist). */
  static List<Path> leftovers(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).collect(Collectors.toList());
    }
  }
}
