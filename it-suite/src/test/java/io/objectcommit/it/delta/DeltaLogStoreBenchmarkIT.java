package io.objectcommit.it.delta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.testsupport.MotoDynamoDb;
import io.objectcommit.testsupport.S3Endpoints;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import io.objectcommit.testsupport.proxy.FaultPlan;
import io.objectcommit.testsupport.proxy.S3Operation;
import io.objectcommit.testsupport.proxy.SeenRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Delta log stores side by side in one run (docs/benchmarks.md, "Delta log stores"): requests and latency per
 * commit of blind appends, one writer and several, with {@code ConditionalPutLogStore} and Delta's default
 * {@code S3SingleDriverLogStore}. The proxy adds a fixed 20 ms to every request (an S3 round trip), no faults.
 * Several writers are threads of one driver, each with its own session: the only setting in which the stock store
 * is safe, and one in which ours meets real races for a version (a refused conditional PUT, 412, and Delta's
 * retry at the next version). Delta's {@code S3DynamoDBLogStore} is the third when the system property
 * {@value DynamoDbLogStore#JAR_PROPERTY} names a jar of it ({@link DynamoDbLogStore}: its artifact does not resolve
 * from this build's Maven repository), with S3 through the same proxy and DynamoDB on moto, whose requests are
 * counted from moto's request recorder; otherwise the report says it was not run, and why.
 *
 * <p>The table is printed and written to {@code target/delta-logstore-benchmark.md}. Asserted: every append
 * committed; with ours exactly one commit-file PUT per version plus one per lost race; with the DynamoDB store one
 * conditional PutItem (the claim) per commit plus one per refused claim, and at least one completion per commit.
 */
@S3IntegrationTest
@Tag(TestTags.DELTA)
@Tag(TestTags.LONG)
class DeltaLogStoreBenchmarkIT {

  private static final Logger LOG = LoggerFactory.getLogger(DeltaLogStoreBenchmarkIT.class);

  private static final long ROWS = 100;
  private static final int SOLO_COMMITS = 8;
  private static final int WRITERS = 4;
  private static final int COMMITS_EACH = 4;
  private static final Duration LATENCY = Duration.ofMillis(20);

  /** One scenario's numbers. */
  private record Result(String store, int writers, int commits, double meanMs, double p50Ms, double maxMs,
      double requestsPerCommit, double logRequestsPerCommit, int commitPuts, int refusedPuts, String dynamoDb) {
  }

  @Test
  void requestsAndLatencyPerCommit(S3TestBucket bucket) throws Exception {
    List<Result> rows = new ArrayList<>();
    for (String[] store : List.of(new String[] {"ConditionalPutLogStore", DeltaTables.OBJECTCOMMIT_LOG_STORE},
        new String[] {"S3SingleDriverLogStore", DeltaTables.STOCK_LOG_STORE})) {
      rows.addAll(runStore(bucket, store[0], DeltaTables.sparkConf(store[1]), null));
    }
    Optional<Path> jar = dynamoDbJar();
    if (jar.isPresent()) {
      try (DynamoDbLogStore ddb = DynamoDbLogStore.start(jar.get(),
          S3Endpoints.workDir().resolve("delta-dynamodb"))) {
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        // Delta finds the store's class through the context class loader; the writers' threads inherit it.
        thread.setContextClassLoader(ddb.classLoader());
        try {
          rows.addAll(runStore(bucket, "S3DynamoDBLogStore", ddb.sparkConf("delta_log_bench"), ddb.dynamoDb()));
        } finally {
          thread.setContextClassLoader(before);
        }
      }
    }
    StringBuilder md = new StringBuilder();
    md.append("| log store | writers | commits | ms per commit: mean | p50 | max | S3 requests per commit | of which"
        + " on `_delta_log/` | commit-file PUTs | of which refused (412) | DynamoDB requests per commit (in all) |\n"
        + "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Result r : rows) {
      md.append(String.format(Locale.ROOT, "| %s | %d | %d | %.0f | %.0f | %.0f | %.1f | %.1f | %d | %d | %s |%n",
          r.store, r.writers, r.commits, r.meanMs, r.p50Ms, r.maxMs, r.requestsPerCommit, r.logRequestsPerCommit,
          r.commitPuts, r.refusedPuts, r.dynamoDb));
    }
    if (jar.isEmpty()) {
      md.append("| S3DynamoDBLogStore | - | - | not run: io.delta:delta-storage-s3-dynamodb does not resolve here and -D"
          + DynamoDbLogStore.JAR_PROPERTY + " names no jar built from Delta's sources | | | | | | | |\n");
    }
    LOG.info("Delta log stores, {} ms added per request:\n{}", LATENCY.toMillis(), md);
    Files.writeString(Path.of("target", "delta-logstore-benchmark.md"), md.toString());
  }

  /**
   * The jar {@value DynamoDbLogStore#JAR_PROPERTY} names, if set; fails naming the property when it is not a file.
   * Here, not in {@link DynamoDbLogStore}, which is loaded only when there is a jar (see there).
   */
  private static Optional<Path> dynamoDbJar() {
    String value = System.getProperty(DynamoDbLogStore.JAR_PROPERTY, "");
    if (value.isBlank()) {
      return Optional.empty();
    }
    Path jar = Path.of(value.trim());
    if (!Files.isRegularFile(jar)) {
      throw new IllegalArgumentException(DynamoDbLogStore.JAR_PROPERTY + "=" + value + ": no such file");
    }
    return Optional.of(jar);
  }

  /** One log store's two scenarios, in a session of their own; {@code dynamoDb} counts its DynamoDB requests. */
  private static List<Result> runStore(S3TestBucket bucket, String store, Map<String, String> conf,
      MotoDynamoDb dynamoDb) throws Exception {
    try (ProxiedBucket proxied = new ProxiedBucket(bucket);
        SparkSession spark = SparkSessions.local("delta-bench", "local[2]", proxied.s3aOptions(), conf)) {
      proxied.proxy().setFaults(FaultPlan.builder(31).latency(LATENCY, Duration.ZERO).build());
      return List.of(run(spark, proxied, dynamoDb, bucket.s3a("bench-" + store + "-1"), store, 1, SOLO_COMMITS),
          run(spark, proxied, dynamoDb, bucket.s3a("bench-" + store + "-" + WRITERS), store, WRITERS, COMMITS_EACH));
    }
  }

  /**
   * {@code writers} threads append {@code commits} times each to a fresh table; the proxy (and moto, when
   * {@code dynamoDb} is not null) count from the first.
   */
  private static Result run(SparkSession spark, ProxiedBucket proxied, MotoDynamoDb dynamoDb, String table,
      String store, int writers, int commits) throws Exception {
    spark.range(0, ROWS, 1, 1).selectExpr("-1 as writer", "0 as seq", "id").write().format("delta").save(table);
    proxied.proxy().resetCounts();
    int ddbBefore = dynamoDb == null ? 0 : dynamoDb.requests().size();
    long ddbRefusedBefore = dynamoDb == null ? 0 : dynamoDb.answers(400);
    List<Long> millis = Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        SparkSession session = spark.newSession();
        done.add(pool.submit(() -> {
          for (int seq = 0; seq < commits; seq++) {
            long t0 = System.nanoTime();
            session.range(0, ROWS, 1, 1).selectExpr(writer + " as writer", seq + " as seq", "id").write()
                .format("delta").mode("append").save(table);
            millis.add((System.nanoTime() - t0) / 1_000_000);
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    List<SeenRequest> seen = proxied.proxy().requests();
    int total = writers * commits;
    String ddbColumn = "0";
    if (dynamoDb != null) {
      List<MotoDynamoDb.Request> ddb = dynamoDb.requests();
      ddb = ddb.subList(ddbBefore, ddb.size());
      long refusedClaims = dynamoDb.answers(400) - ddbRefusedBefore;
      Map<String, Long> byOp = ddb.stream().collect(Collectors.groupingBy(MotoDynamoDb.Request::operation,
          TreeMap::new, Collectors.counting()));
      // A claim is the conditional PutItem (complete=false); a completion is unconditional (complete=true), sent by
      // the committer and again by any reader that found the entry incomplete and finished it (the store's recovery).
      long claims = ddb.stream().filter(r -> r.operation().equals("PutItem") && r.body().contains("\"Expected\""))
          .count();
      long completions = byOp.getOrDefault("PutItem", 0L) - claims;
      assertEquals(total + refusedClaims, claims, "one claim per commit, one more per refused claim: " + byOp);
      assertTrue(completions >= total, "every commit's entry completed: " + completions);
      ddbColumn = String.format(Locale.ROOT, "%.1f (%s; %d claims refused, %d completions repeated by a reader)",
          ddb.size() / (double) total,
          byOp.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")),
          refusedClaims, completions - total);
    }
    assertEquals(total + 1L, spark.read().format("delta").load(table).select("writer", "seq").distinct()
        .count(), "every append committed, once");
    long onLog = seen.stream().filter(r -> r.request().key() != null && r.request().key().contains("/_delta_log/"))
        .count();
    List<SeenRequest> commitPuts = seen.stream().filter(r -> r.operation() == S3Operation.PUT)
        .filter(r -> DeltaTables.COMMIT_KEY.matcher("/" + r.request().key()).matches()).toList();
    int refused = (int) commitPuts.stream().filter(r -> r.status() == 412).count();
    if (store.startsWith("ConditionalPut")) {
      assertEquals(total + refused, commitPuts.size(), "one conditional PUT per version, one more per lost race");
      assertTrue(commitPuts.stream().allMatch(r -> r.status() == 200 || r.status() == 412), commitPuts.toString());
    }
    List<Long> sorted = new ArrayList<>(millis);
    Collections.sort(sorted);
    double mean = sorted.stream().mapToLong(Long::longValue).average().orElse(0);
    return new Result(store, writers, total, mean, sorted.get(sorted.size() / 2), sorted.get(sorted.size() - 1),
        seen.size() / (double) total, onLog / (double) total, commitPuts.size(), refused, ddbColumn);
  }
}
