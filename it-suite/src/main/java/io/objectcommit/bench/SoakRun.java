package io.objectcommit.bench;

import static org.apache.spark.sql.functions.col;

import io.objectcommit.checkpoint.CheckpointMaintenance;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.testsupport.PlainS3;
import io.objectcommit.testsupport.S3Endpoint;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.S3TestSettings;
import io.objectcommit.testsupport.SparkCompat;
import io.objectcommit.testsupport.proxy.FaultPlan;
import io.objectcommit.testsupport.proxy.RequestCounts;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;

/**
 * The soak run of docs/reliability.md ("Soak run"): one stateful streaming query on {@code ckpt://} (S3 manifest
 * backend, with the three settings a user sets and nothing else of ours) through the fault proxy with a fixed
 * latency per request, for a given number of micro-batches, with Spark's state store maintenance every few seconds
 * (so that snapshots and the deletion of old state files run many times) and Spark's default retention
 * ({@code spark.sql.streaming.minBatchesToRetain} 100).
 *
 * <p>The query: Spark's {@code rate-micro-batch} source ({@value #ROWS_PER_BATCH} rows per micro-batch, values
 * {@code 0, 1, 2, ...} in order, no source log file per batch), counted by {@code value % }{@value #KEYS},
 * complete mode, a {@code foreachBatch} sink. The sink runs on the driver inside each micro-batch; it measures the
 * batch that ends there (the time and the proxy's requests since the previous sink call: one whole micro-batch
 * cycle, its commit-log write included, and whatever maintenance ran meanwhile), and every
 * {@code sampleEvery} batches the bucket (objects, the largest {@code .ckpt/dirs/} manifest, listed with
 * ListObjectVersions straight from the S3 endpoint, not through the proxy, so that deleted objects must really be
 * gone) and the heap after a full GC. The query runs in local mode: driver and executors are this one JVM, and
 * the heap measured is both. The run stops after {@code batches} micro-batches; the counts of the last one must
 * be exactly those of the values {@code 0 .. batches * ROWS_PER_BATCH - 1}.
 */
public final class SoakRun {

  static final int KEYS = 1000;
  static final int ROWS_PER_BATCH = 4000;

  /**
   * Spark's own UI status retention (jobs, stages, SQL executions, default 1,000 each) lowered to 100 so that
   * Spark's bounded bookkeeping stops growing after a few hundred micro-batches instead of after 1,000: without
   * it a 300-batch run's heap grows with Spark's status store, not with anything of ours.
   */
  static final Map<String, String> SPARK_STATUS_RETENTION = Map.of(
      "spark.ui.retainedJobs", "100",
      "spark.ui.retainedStages", "100",
      "spark.sql.ui.retainedExecutions", "100");

  /** The last micro-batch the sink saw (for the message when the query stops by itself). */
  private static volatile long lastBatch = -1;
  private static volatile Sampler sampler;

  private final S3Endpoint upstream;
  private final SoakSettings settings;

  public SoakRun(S3Endpoint upstream, SoakSettings settings) {
    this.upstream = upstream;
    this.settings = settings;
  }

  /** Runs the query for {@code settings.batches()} micro-batches on one state store. */
  public SoakResult run(String stateStoreKey) throws Exception {
    StateStoreChoice store = StateStoreChoice.of(stateStoreKey);
    store.requireSpark(org.apache.spark.package$.MODULE$.SPARK_VERSION());
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.hadoop.fs.ckpt.impl", "io.objectcommit.checkpoint.CheckpointFileSystem");
    conf.put("spark.hadoop.fs.AbstractFileSystem.ckpt.impl", "io.objectcommit.checkpoint.CheckpointFs");
    conf.put("spark.sql.streaming.checkpointFileManagerClass", "io.objectcommit.checkpoint.CheckpointFileManagerImpl");
    conf.putAll(store.sparkConf());
    conf.put("spark.sql.shuffle.partitions", Integer.toString(settings.partitions()));
    conf.put("spark.sql.streaming.stateStore.maintenanceInterval", settings.maintenanceSeconds() + "s");
    conf.putAll(SPARK_STATUS_RETENTION);
    try (S3FaultProxy proxy = S3FaultProxy.start(upstream);
        S3TestBucket bucket = S3TestBucket.create(upstream, "soak",
            S3TestSettings.fromEnvironment().sharedBucket().orElse(null));
        SparkSession spark = SparkSessions.local("objectcommit-soak", settings.master(),
            proxy.endpoint().s3aOptions(), conf)) {
      proxy.setFaults(FaultPlan.builder(1).latency(Duration.ofMillis(settings.latencyMs()), Duration.ZERO).build());
      PlainS3 plain = new PlainS3(upstream);
      String prefix = bucket.prefix();
      String location = "ckpt://" + bucket.name() + "/" + prefix + "soak/query";
      Sampler s = new Sampler(proxy, () -> BucketSample.of(plain.listVersions(bucket.name(), prefix)),
          settings);
      sampler = s;
      lastBatch = -1;
      Dataset<Row> counts = spark.readStream().format("rate-micro-batch")
          .option("rowsPerBatch", ROWS_PER_BATCH).option("numPartitions", 2).load()
          .groupBy(col("value").mod(KEYS).cast("int").as("k")).count();
      VoidFunction2<Dataset<Row>, Long> sink = SoakRun::sink;
      StreamingQuery q = SparkCompat.option(counts.writeStream().outputMode("complete"), "checkpointLocation",
          location).foreachBatch(sink).start();
      long t0 = System.nanoTime();
      try {
        while (!s.done()) {
          if (!q.isActive()) {
            throw new IllegalStateException("the soak query stopped after micro-batch " + lastBatch,
                q.exception().isDefined() ? q.exception().get() : null);
          }
          Thread.sleep(200);
        }
      } finally {
        q.stop();
        sampler = null;
      }
      long seconds = (System.nanoTime() - t0) / 1_000_000_000L;
      List<PlainS3.Version> settled = awaitQuiet(() -> plain.listVersions(bucket.name(), prefix),
          Duration.ofSeconds(2L * settings.maintenanceSeconds()), Duration.ofSeconds(60));
      BucketSample end = BucketSample.of(settled);
      SoakResult.Accounting accounting = account(location, spark.sparkContext().hadoopConfiguration());
      return new SoakResult(store.key(), settings, s.batches(), s.samples(), end, accounting,
          expectedCounts(s.lastBatchId()), s.lastBatchCounts(), seconds);
    } catch (TimeoutException e) {
      throw new IllegalStateException("the soak query did not stop", e);
    }
  }

  /**
   * The bucket once the stopped query's files are settled: Spark's state store maintenance runs once more for the
   * stopped query's stores (a snapshot, the deletion of old files) before it unloads them, on its own timer. Lists
   * the objects every {@code interval} until two listings agree (or {@code limit} passed): an accounting while that
   * maintenance writes would catch a file between its data object and its manifest entry.
   */
  static List<PlainS3.Version> awaitQuiet(Supplier<List<PlainS3.Version>> listing, Duration interval, Duration limit)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    List<PlainS3.Version> last = listing.get();
    while (true) {
      Thread.sleep(interval.toMillis());
      List<PlainS3.Version> now = listing.get();
      if (now.equals(last) || System.nanoTime() > deadline) {
        return now;
      }
      last = now;
    }
  }

  /**
   * The checkpoint against its bucket once the query stopped: Spark's files (a recursive listing), what
   * {@code objectcommit checkpoint gc --dry-run} would delete (objects no manifest names) and what
   * {@code objectcommit checkpoint verify} reports.
   */
  static SoakResult.Accounting account(String location, Configuration conf) throws IOException {
    org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(location);
    long files = 0;
    RemoteIterator<LocatedFileStatus> it = root.getFileSystem(conf).listFiles(root, true);
    while (it.hasNext()) {
      it.next();
      files++;
    }
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
    try (CheckpointMaintenance m = CheckpointMaintenance.open(root, conf)) {
      List<String> problems = m.verify(quiet);
      List<String> unreferenced = m.gc(Duration.ZERO, true, quiet);
      return new SoakResult.Accounting(files, unreferenced, problems);
    }
  }

  /** The sink: records the last batch's counts and hands the batch to the sampler (runs on the driver). */
  private static void sink(Dataset<Row> batch, Long id) throws Exception {
    Map<Integer, Long> m = new TreeMap<>();
    for (Row r : batch.collectAsList()) {
      m.put(r.getInt(0), r.getLong(1));
    }
    lastBatch = id;
    Sampler s = sampler;
    if (s != null) {
      s.afterBatch(id, m);
    }
  }

  /** Counts by key after the micro-batches {@code 0 .. lastBatchId}: the values {@code 0 .. n - 1}. */
  static Map<Integer, Long> expectedCounts(long lastBatchId) {
    long n = (lastBatchId + 1) * ROWS_PER_BATCH;
    Map<Integer, Long> m = new TreeMap<>();
    for (int k = 0; k < KEYS && k < n; k++) {
      m.put(k, (n - 1 - k) / KEYS + 1);
    }
    return m;
  }

  /** What the sink measures, micro-batch by micro-batch. */
  private static final class Sampler {
    private final S3FaultProxy proxy;
    private final java.util.function.Supplier<BucketSample> bucket;
    private final int batches;
    private final int sampleEvery;
    private final int warmup;
    private final int window;
    private final List<SoakResult.Batch> measured = new ArrayList<>();
    private final List<SoakResult.Sample> samples = new ArrayList<>();
    private boolean started;
    private long previousNanos;
    private volatile boolean done;
    private volatile long lastBatchId = -1;
    private volatile Map<Integer, Long> lastBatchCounts = Map.of();

    Sampler(S3FaultProxy proxy, java.util.function.Supplier<BucketSample> bucket, SoakSettings settings) {
      this.proxy = proxy;
      this.bucket = bucket;
      this.batches = settings.batches();
      this.sampleEvery = settings.sampleEvery();
      this.warmup = settings.warmup();
      this.window = settings.window();
    }

    synchronized void afterBatch(long id, Map<Integer, Long> counts) {
      if (done) {
        return;
      }
      long now = System.nanoTime();
      // counted and reset at once: the proxy keeps no request list growing with the run (that would be heap of ours)
      RequestCounts since = proxy.countsAndReset();
      if (started) {
        measured.add(new SoakResult.Batch(id, (now - previousNanos) / 1e9, Requests.of(since)));
      }
      started = true;
      lastBatchId = id;
      lastBatchCounts = counts;
      if (id % sampleEvery == 0 || id + 1 >= batches) {
        BucketSample b = bucket.get();
        samples.add(new SoakResult.Sample(id, heapAfterFullGc(), b));
        proxy.countsAndReset(); // what maintenance sent while we sampled belongs to no micro-batch
        if (id % 100 == 0) {
          Progress.say(String.format("soak: micro-batch %d, %d objects, largest manifest %,d bytes, heap %d MiB%s",
              id, b.objects(), b.largestManifestBytes(), samples.get(samples.size() - 1).heapBytes() >> 20,
              sinceFirstWindow(id)));
        }
      }
      if (id + 1 >= batches) {
        done = true;
      }
      // the sampling's own time (GC, listing) is not the next batch's; the listing bypasses the proxy
      previousNanos = System.nanoTime();
    }

    /**
     * Once past the first window: requests and seconds per micro-batch of the first window against the last 100
     * measured so far (a long run's interim numbers, in case it is stopped before its end).
     */
    private String sinceFirstWindow(long id) {
      if (id < warmup + 2L * window) {
        return "";
      }
      double[] first = mean(b -> b.id() >= warmup && b.id() < warmup + window);
      double[] last = mean(b -> b.id() > id - window && b.id() <= id);
      return String.format("; requests/batch %.2f (batches %d-%d) -> %.2f (last %d), seconds/batch %.3f -> %.3f",
          first[0], warmup, warmup + window - 1, last[0], window, first[1], last[1]);
    }

    private double[] mean(java.util.function.Predicate<SoakResult.Batch> which) {
      double requests = 0;
      double seconds = 0;
      int n = 0;
      for (SoakResult.Batch b : measured) {
        if (which.test(b)) {
          requests += b.requests().total();
          seconds += b.seconds();
          n++;
        }
      }
      return new double[] {requests / n, seconds / n};
    }

    boolean done() {
      return done;
    }

    synchronized List<SoakResult.Batch> batches() {
      return List.copyOf(measured);
    }

    synchronized List<SoakResult.Sample> samples() {
      return List.copyOf(samples);
    }

    long lastBatchId() {
      return lastBatchId;
    }

    Map<Integer, Long> lastBatchCounts() {
      return lastBatchCounts;
    }
  }

  /** Heap in use after a full GC (twice, so that what the first one finalised is gone too). */
  static long heapAfterFullGc() {
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
