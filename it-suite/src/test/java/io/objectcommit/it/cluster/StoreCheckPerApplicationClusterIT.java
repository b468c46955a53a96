package io.objectcommit.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.it.cluster.ClusterJobs.Committer;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.SparkStandaloneCluster;
import io.objectcommit.testsupport.SparkSubmission;
import io.objectcommit.testsupport.TestTags;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import io.objectcommit.testsupport.proxy.SeenRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One store guarantee check per application, not per JVM (issue 25), on the standalone cluster (driver and two
 * executor JVMs) against LocalStack, which passes the check, every request through the fault proxy. One
 * application runs, one after the other, a stateful streaming query checkpointed on {@code ckpt://} (its state
 * stores write from the executors), a write with the staging committer and one with the direct committer, each
 * component on a bucket of its own so that each reaches its executors by its own path (verdicts are per bucket and
 * endpoint): the query through the SparkContext's Hadoop configuration, from which Spark copies the state stores'
 * configuration; the committers through the job configuration, which Spark serialises into the tasks after job
 * setup.
 *
 * <p>The same application runs twice: with {@code fs.objectcommit.conditional-writes.share-verdict=false} (every
 * JVM checks for itself, as before) and with the default. The proxy sees each request's attribution header, so the
 * check's requests ({@code ck=guarantee-check}) are counted per JVM ({@code ps}) and per bucket; a JVM is an
 * executor of a component when it sent that component's task requests ({@code ta} for the committers, {@code st}
 * for the query's state stores), the driver when it sent a committer's job requests. Before: each bucket checked by
 * the driver and by every executor that ran its tasks; after: by the driver alone, and the executors' requests
 * include no check. Each run prints {@code STORE-CHECK-PER-APPLICATION} lines with the counts (docs/stores.md).
 */
@S3IntegrationTest
@Tag(TestTags.CLUSTER)
class StoreCheckPerApplicationClusterIT {

  private static final Logger LOG = LoggerFactory.getLogger(StoreCheckPerApplicationClusterIT.class);
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(8);
  private static final int FILES = 3;
  private static SparkStandaloneCluster cluster;

  @BeforeAll
  static void startCluster() throws IOException {
    cluster = ClusterJobs.startCluster();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
      assertEquals(List.of(), cluster.liveProcesses().stream().map(SparkStandaloneCluster::commandLine)
          .collect(Collectors.toList()), "processes of the cluster left after it stopped");
    }
  }

  /** What one application's requests say, per component. */
  private static final class Census {
    final String run;
    final Map<String, String> bucketOf = new LinkedHashMap<>();
    /** Component to (JVM to the check's requests). */
    final Map<String, Map<String, Long>> checks = new TreeMap<>();
    /** Component to the JVMs that ran its tasks. */
    final Map<String, Set<String>> taskJvms = new TreeMap<>();
    /** Component to all its requests (the check's included). */
    final Map<String, Long> requests = new TreeMap<>();
    final Set<String> drivers = new TreeSet<>();
    final Set<String> applications = new TreeSet<>();
    long unattributed;

    Census(String run) {
      this.run = run;
    }

    String component(String bucket) {
      return bucketOf.entrySet().stream().filter(e -> e.getValue().equals(bucket)).map(Map.Entry::getKey)
          .findFirst().orElse(null);
    }

    Set<String> checkers(String component) {
      return checks.getOrDefault(component, Map.of()).keySet();
    }

    long checkRequests(String component) {
      return checks.getOrDefault(component, Map.of()).values().stream().mapToLong(Long::longValue).sum();
    }

    String line(String component) {
      return "STORE-CHECK-PER-APPLICATION run=" + run + " component=" + component + " requests="
          + requests.getOrDefault(component, 0L) + " check-requests=" + checkRequests(component)
          + " checking-jvms=" + checkers(component).size() + " task-jvms=" + taskJvms.getOrDefault(component,
          Set.of()).size() + " per-jvm=" + checks.getOrDefault(component, Map.of()).values();
    }
  }

  @Test
  void theDriversCheckServesTheExecutorsOfItsApplication(S3TestBucket bucket) throws Exception {
    try (S3FaultProxy proxy = S3FaultProxy.start(bucket.endpoint());
        S3TestBucket staging = S3TestBucket.create(bucket.endpoint(), "verdict-staging", null);
        S3TestBucket direct = S3TestBucket.create(bucket.endpoint(), "verdict-direct", null)) {
      Map<String, S3TestBucket> buckets = new LinkedHashMap<>();
      buckets.put("checkpoint", bucket);
      buckets.put("staging", staging);
      buckets.put("direct", direct);

      Census before = run("per-jvm", false, buckets, proxy);
      Census after = run("per-application", true, buckets, proxy);
      for (Census c : List.of(before, after)) {
        for (String component : buckets.keySet()) {
          LOG.info(c.line(component));
        }
        assertEquals(1, c.applications.size(), c.run + ": one application id in every request: " + c.applications);
        assertTrue(c.applications.iterator().next().startsWith("app-"), c.applications.toString());
        assertEquals(1, c.drivers.size(), c.run + ": one driver: " + c.drivers);
        assertEquals(0, c.unattributed, c.run + ": every request of ours (user agent) attributed, no other");
      }
      String driver;
      for (String component : buckets.keySet()) {
        Set<String> executors = before.taskJvms.getOrDefault(component, Set.of());
        assertEquals(2, executors.size(), "before, " + component + " ran tasks on both executors: " + executors);
        driver = before.drivers.iterator().next();
        Set<String> expected = new TreeSet<>(executors);
        expected.add(driver);
        assertEquals(expected, before.checkers(component), "before: " + component + "'s bucket checked by the driver"
            + " and by each executor that ran its tasks");

        Set<String> afterExecutors = after.taskJvms.getOrDefault(component, Set.of());
        assertFalse(afterExecutors.isEmpty(), "after: " + component + " ran tasks on executors");
        assertEquals(after.drivers, after.checkers(component), "after: " + component + "'s bucket checked by the"
            + " driver alone; executors " + afterExecutors);
        assertTrue(after.checkRequests(component) > 0, "the driver did check " + component + "'s bucket");
        assertTrue(after.checkRequests(component) < before.checkRequests(component), component);
      }
    }
  }

  /** Submits the application, with or without sharing the verdict, and reads what the proxy saw of it. */
  private Census run(String name, boolean share, Map<String, S3TestBucket> buckets, S3FaultProxy proxy)
      throws Exception {
    Path dir = Files.createDirectories(cluster.dir().resolve("scenarios").resolve("store-check-" + name + "-"
        + System.currentTimeMillis()));
    Path input = Files.createDirectories(dir.resolve("input"));
    for (int i = 0; i < FILES; i++) {
      Files.write(input.resolve(String.format("part-%03d.txt", i)), List.of("a", "b", "c" + i));
    }
    List<Map<String, Object>> plan = new ArrayList<>();
    S3TestBucket ckpt = buckets.get("checkpoint");
    plan.add(entry(dir, "stream", Map.of("stream", Map.of("input", input.toString(),
        "checkpoint", ckpt.uri("ckpt", "checkpoints/" + name), "output",
        Files.createDirectories(dir.resolve("stream-output")).toString(), "provider", "default"))));
    for (Committer c : List.of(Committer.STAGING, Committer.DIRECT)) {
      String component = c.name().toLowerCase();
      plan.add(entry(dir, component, Map.of("out", buckets.get(component).s3a("tables/" + name), "rows", 400,
          "partitions", 4, "sql_conf", c.sessionConf)));
    }
    Path planFile = dir.resolve("plan.json");
    ClusterJobs.JSON.writerWithDefaultPrettyPrinter().writeValue(planFile.toFile(), plan);

    List<String> settings = new ArrayList<>(List.of(
        "spark.hadoop.fs.s3a.endpoint=" + proxy.endpoint().uri(),
        "spark.hadoop.fs.ckpt.impl=io.objectcommit.checkpoint.CheckpointFileSystem",
        "spark.hadoop.fs.AbstractFileSystem.ckpt.impl=io.objectcommit.checkpoint.CheckpointFs",
        "spark.sql.streaming.checkpointFileManagerClass=io.objectcommit.checkpoint.CheckpointFileManagerImpl",
        "spark.sql.shuffle.partitions=4",
        "spark.hadoop.fs.objectcommit.staging.buffer.dirs=" + dir.resolve("staging-buffer"),
        // both executors registered before the first job, so that each component's tasks run on both
        "spark.scheduler.minRegisteredResourcesRatio=1.0",
        "spark.scheduler.maxRegisteredResourcesWaitingTime=120s"));
    if (!share) {
      settings.add("spark.hadoop.fs.objectcommit.conditional-writes.share-verdict=false");
    }
    proxy.resetCounts();
    long t0 = System.nanoTime();
    try (SparkSubmission app = cluster.submit("store-check-" + name, ClusterJobs.options(ckpt, settings),
        ClusterJobs.app(), List.of("plan", planFile.toString()))) {
      int code = app.await(RUN_TIMEOUT);
      assertEquals(0, code, ClusterJobs.describe(app, code));
    }
    for (Map<String, Object> e : plan) {
      Path markers = Path.of((String) e.get("markers"));
      assertEquals("ok", ClusterJobs.result(markers).orElseThrow().path("status").asText(), e.get("name") + "");
    }
    LOG.info("store-check {}: application {} s", name, (System.nanoTime() - t0) / 1_000_000_000);
    assertEquals(0, proxy.droppedRequests());
    return census(name, buckets, proxy.requests());
  }

  /** A plan entry whose markers directory already holds its {@code go} file (no check between entries). */
  private static Map<String, Object> entry(Path dir, String name, Map<String, Object> fields) throws IOException {
    Path markers = Files.createDirectories(dir.resolve(name).resolve("markers"));
    Files.writeString(markers.resolve("go"), "");
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", name);
    m.put("markers", markers.toString());
    m.putAll(fields);
    return m;
  }

  private static Census census(String run, Map<String, S3TestBucket> buckets, List<SeenRequest> seen) {
    Census c = new Census(run);
    buckets.forEach((component, b) -> c.bucketOf.put(component, b.name()));
    for (SeenRequest r : seen) {
      String component = c.component(r.request().bucket());
      if (component == null) {
        continue;
      }
      Map<String, String> f = r.referrerParams();
      boolean ours = r.fromObjectcommit();
      if (ours != f.containsKey("oc")) {
        c.unattributed++; // one of ours without the header, or the header on someone else's
      }
      if (!ours) {
        continue; // S3A's own requests (Spark's file system on s3a://)
      }
      assertEquals(component, f.get("co"), r.toString());
      String jvm = f.get("ps");
      c.requests.merge(component, 1L, Long::sum);
      if (f.get("sa") != null) {
        c.applications.add(f.get("sa"));
      }
      if ("guarantee-check".equals(f.get("ck"))) {
        c.checks.computeIfAbsent(component, k -> new TreeMap<>()).merge(jvm, 1L, Long::sum);
      } else if (f.containsKey("ta") || component.equals("checkpoint") && f.containsKey("st")) {
        c.taskJvms.computeIfAbsent(component, k -> new TreeSet<>()).add(jvm);
      } else if (!component.equals("checkpoint") && f.containsKey("ji")) {
        c.drivers.add(jvm);
      }
    }
    return c;
  }
}
