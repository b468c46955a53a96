package io.objectcommit.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * One soak run's measurements ({@link SoakRun}) and its properties: the first window after the warm-up against
 * the last window, each property met or missed with the numbers. Immutable.
 *
 * @param stateStore the state store's key ({@code default}, {@code rocksdb}, ...)
 * @param settings the run's settings
 * @param batches every measured micro-batch (from micro-batch 1: batch 0 has no predecessor to measure from)
 * @param samples the bucket and the heap every {@code sampleEvery} micro-batches, and after the last
 * @param end the bucket after the query stopped
 * @param accounting the checkpoint against the bucket after the query stopped
 * @param expectedCounts the counts by key the last micro-batch must show
 * @param counts the counts by key it showed
 * @param seconds the run's wall time
 */
public record SoakResult(String stateStore, SoakSettings settings, List<Batch> batches, List<Sample> samples,
    BucketSample end, Accounting accounting, Map<Integer, Long> expectedCounts, Map<Integer, Long> counts,
    long seconds) {

  /** Requests and seconds per micro-batch may differ by this much between the windows. */
  public static final double PER_BATCH_TOLERANCE = 0.05;

  /**
   * What the CI-sized soak allows for requests and writes per micro-batch on a shared machine: state store
   * maintenance runs on a timer, so its revalidating GETs, snapshot PUTs and deletions per micro-batch follow the
   * machine's speed, not the checkpoint's growth (a run at 0.33 s per micro-batch wrote 5.1% more in its last window,
   * all of it maintenance's deletions and snapshots). The long run ({@code bin/soak}) holds both to
   * {@link #PER_BATCH_TOLERANCE}.
   */
  public static final double SHARED_MACHINE_REQUEST_TOLERANCE = 0.10;

  /**
   * The largest manifest of the last window may exceed the first window's by this much: after the warm-up every
   * directory holds what Spark retains, flat up to where in its maintenance and purge cycle a sample falls. The
   * object count is held to it in the report only: it is Spark's retention (how many deltas a partition holds
   * between two maintenance runs, which run on a timer, follows the speed of the micro-batches), and what is
   * asserted of the objects is exact ({@link Accounting}: every object is a manifest or a file Spark keeps).
   */
  public static final double BOUNDED_TOLERANCE = 0.10;

  /** Heap after full GC, last window's mean against the first's: this fraction, or {@value #HEAP_SLACK_MB} MB. */
  public static final double HEAP_TOLERANCE = 0.10;
  public static final long HEAP_SLACK_MB = 32;

  /**
   * One micro-batch: from the previous micro-batch's sink call to this one's.
   *
   * @param id the micro-batch id
   * @param seconds its wall time
   * @param requests the S3 requests the proxy answered meanwhile, by operation
   */
  public record Batch(long id, double seconds, Requests requests) {
  }

  /**
   * A sample of the bucket and the heap.
   *
   * @param batch the micro-batch after which it was taken
   * @param heapBytes heap in use after a full GC
   * @param bucket the bucket then
   */
  public record Sample(long batch, long heapBytes, BucketSample bucket) {
  }

  /**
   * A property of the run.
   *
   * @param name what it is
   * @param first the first window's value
   * @param last the last window's value
   * @param limit the limit the last window's value is held to
   * @param met whether it was met
   * @param asserted whether SoakIT and bin/soak's exit code hold the run to it (seconds are only reported)
   */
  public record Check(String name, double first, double last, String limit, boolean met, boolean asserted) {
  }

  /**
   * The checkpoint against its bucket after the query stopped: whether every object is one the checkpoint still
   * names (a manifest, or the data of a file Spark keeps), so that the bucket holds what Spark retains and nothing
   * else, and every object a manifest names exists.
   *
   * @param sparkFiles the files in the checkpoint (what Spark retains), from a recursive listing
   * @param unreferenced objects no manifest names (what {@code objectcommit checkpoint gc} would delete)
   * @param problems what {@code objectcommit checkpoint verify} reports (a named object missing, a bad manifest)
   */
  public record Accounting(long sparkFiles, List<String> unreferenced, List<String> problems) {
    public Accounting {
      unreferenced = List.copyOf(unreferenced);
      problems = List.copyOf(problems);
    }
  }

  public SoakResult {
    batches = List.copyOf(batches);
    samples = List.copyOf(samples);
    expectedCounts = new TreeMap<>(expectedCounts);
    counts = new TreeMap<>(counts);
  }

  /** First micro-batch id of the first window (after the warm-up). */
  public long firstWindowStart() {
    return settings.warmup();
  }

  /** First micro-batch id of the last window. */
  public long lastWindowStart() {
    return (long) settings.batches() - settings.window();
  }

  private boolean inFirst(long id) {
    return id >= firstWindowStart() && id < firstWindowStart() + settings.window();
  }

  private boolean inLast(long id) {
    return id >= lastWindowStart() && id < settings.batches();
  }

  private double batchMean(boolean first, ToDoubleFunction<Batch> f) {
    return batches.stream().filter(b -> first ? inFirst(b.id()) : inLast(b.id())).mapToDouble(f).average()
        .orElse(Double.NaN);
  }

  private double sampleMax(boolean first, ToDoubleFunction<Sample> f) {
    return samples.stream().filter(s -> first ? inFirst(s.batch()) : inLast(s.batch())).mapToDouble(f).max()
        .orElse(Double.NaN);
  }

  private double sampleMean(boolean first, ToDoubleFunction<Sample> f) {
    return samples.stream().filter(s -> first ? inFirst(s.batch()) : inLast(s.batch())).mapToDouble(f).average()
        .orElse(Double.NaN);
  }

  private double writesPerBatch(boolean first) {
    return requestsPerBatch(first, "PUT") + requestsPerBatch(first, "DELETE") + requestsPerBatch(first, "BULK_DELETE");
  }

  /** Mean requests of one operation per micro-batch in a window. */
  public double requestsPerBatch(boolean first, String operation) {
    return batchMean(first, b -> operation == null ? b.requests().total() : b.requests().of(operation));
  }

  /** Every property, in the order of the issue, requests per micro-batch within {@link #PER_BATCH_TOLERANCE}. */
  public List<Check> checks() {
    return checks(PER_BATCH_TOLERANCE);
  }

  /**
   * Every property, in the order of the issue; all requests per micro-batch within {@code requestTolerance}, the
   * writes (PUT, DELETE, BULK_DELETE) no more than {@code requestTolerance} above the first window's.
   */
  public List<Check> checks(double requestTolerance) {
    List<Check> c = new ArrayList<>();
    double r1 = requestsPerBatch(true, null);
    double r2 = requestsPerBatch(false, null);
    c.add(within("S3 requests per micro-batch (mean)", r1, r2, requestTolerance, true));
    double w1 = writesPerBatch(true);
    double w2 = writesPerBatch(false);
    // growth only: Spark deletes old state files in its maintenance, on a timer, and bulk-deletes what one run
    // finds, so fewer runs in a window (faster micro-batches) delete the same keys in fewer requests
    c.add(atMost("S3 writes per micro-batch: PUT, DELETE, BULK_DELETE (mean)", w1, w2, requestTolerance));
    double s1 = batchMean(true, Batch::seconds);
    double s2 = batchMean(false, Batch::seconds);
    c.add(within("seconds per micro-batch (mean)", s1, s2, PER_BATCH_TOLERANCE, false));
    double m1 = sampleMax(true, s -> s.bucket().largestManifestBytes());
    double m2 = sampleMax(false, s -> s.bucket().largestManifestBytes());
    c.add(atMost("largest .ckpt/dirs manifest, bytes (max of samples)", m1, m2, BOUNDED_TOLERANCE));
    double n1 = sampleMax(true, s -> s.bucket().manifests());
    double n2 = Math.max(sampleMax(false, s -> s.bucket().manifests()), (double) end.manifests());
    c.add(atMost("manifests in the bucket (max of samples; last: and after stop)", n1, n2, 0));
    int stray = accounting.unreferenced().size() + accounting.problems().size();
    c.add(new Check("objects after stop not named by the checkpoint, and named objects missing ("
        + end.objects() + " objects: " + end.manifests() + " manifests and the data of Spark's "
        + accounting.sparkFiles() + " files)", 0, stray, "0 (exact)", stray == 0, true));
    double o1 = sampleMax(true, s -> s.bucket().objects());
    double o2 = Math.max(sampleMax(false, s -> s.bucket().objects()), (double) end.objects());
    Check objects = atMost("objects in the bucket, all versions (max of samples; last: and after stop)", o1, o2,
        BOUNDED_TOLERANCE);
    c.add(new Check(objects.name(), o1, o2, objects.limit(), objects.met(), false));
    double h1 = sampleMean(true, Sample::heapBytes) / (1 << 20);
    double h2 = sampleMean(false, Sample::heapBytes) / (1 << 20);
    double heapLimit = Math.max(h1 * (1 + HEAP_TOLERANCE), h1 + HEAP_SLACK_MB);
    c.add(new Check("heap after full GC, MiB (mean of samples; driver = executor, local mode)", h1, h2,
        String.format("<= %.0f (+10%% or +%d MiB)", heapLimit, HEAP_SLACK_MB), h2 <= heapLimit, true));
    boolean exact = !counts.isEmpty() && counts.equals(expectedCounts);
    c.add(new Check("final counts exact (" + expectedCounts.size() + " keys, micro-batches 0.." + lastBatchId()
        + ")", expectedCounts.values().stream().mapToLong(Long::longValue).sum(),
        counts.values().stream().mapToLong(Long::longValue).sum(), "equal, key by key", exact, true));
    return c;
  }

  /** The last micro-batch measured. */
  public long lastBatchId() {
    return batches.isEmpty() ? -1 : batches.get(batches.size() - 1).id();
  }

  /** The asserted properties that were missed. */
  public List<Check> missed() {
    return checks().stream().filter(k -> k.asserted() && !k.met()).toList();
  }

  private static Check within(String name, double first, double last, double tolerance, boolean asserted) {
    boolean met = Math.abs(last - first) <= tolerance * first;
    return new Check(name, first, last, String.format("within %.0f%%", tolerance * 100), met, asserted);
  }

  private static Check atMost(String name, double first, double last, double tolerance) {
    double limit = first * (1 + tolerance);
    return new Check(name, first, last, String.format("<= %.0f (+%.0f%%)", limit, tolerance * 100), last <= limit,
        true);
  }

  /** The first-window against last-window table (Markdown), with the requests by operation. */
  public String table() {
    return table(PER_BATCH_TOLERANCE);
  }

  /** {@link #table()} with the limits of {@link #checks(double)}. */
  public String table(double requestTolerance) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("State store %s: %d micro-batches in %d s; windows: micro-batches %d-%d (after a "
        + "warm-up of %d) and %d-%d%n%n", stateStore, settings.batches(), seconds, firstWindowStart(),
        firstWindowStart() + settings.window() - 1, settings.warmup(), lastWindowStart(), settings.batches() - 1));
    sb.append("| property | first window | last window | change | limit | met |\n");
    sb.append("|---|---:|---:|---:|---|---|\n");
    for (Check k : checks(requestTolerance)) {
      sb.append(String.format("| %s | %s | %s | %+.1f%% | %s | %s |%n", k.name(), num(k.first()), num(k.last()),
          k.first() == 0 ? 0.0 : 100 * (k.last() - k.first()) / k.first(), k.limit(),
          k.met() ? "yes" : k.asserted() ? "**no**" : "no (reported only)"));
    }
    for (String op : operations()) {
      double a = requestsPerBatch(true, op);
      double b = requestsPerBatch(false, op);
      sb.append(String.format("| %s requests per micro-batch | %s | %s | %+.1f%% | | |%n", op, num(a), num(b),
          a == 0 ? 0.0 : 100 * (b - a) / a));
    }
    Sample lastSample = samples.isEmpty() ? null : samples.get(samples.size() - 1);
    if (lastSample != null) {
      sb.append(String.format("%nLargest manifest at the end: %s (%,d bytes); %d manifests; %d objects after the "
          + "query stopped%n", lastSample.bucket().largestManifest(), lastSample.bucket().largestManifestBytes(),
          lastSample.bucket().manifests(), end.objects()));
    }
    for (String u : accounting.unreferenced()) {
      sb.append("Not named by the checkpoint: ").append(u).append('\n');
    }
    for (String p : accounting.problems()) {
      sb.append("Checkpoint verify: ").append(p).append('\n');
    }
    return sb.toString();
  }

  private List<String> operations() {
    List<String> ops = new ArrayList<>();
    for (Batch b : batches) {
      for (String op : b.requests().byOperation().keySet()) {
        if (!ops.contains(op)) {
          ops.add(op);
        }
      }
    }
    return ops;
  }

  private static String num(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.format("%,d", (long) v) : String.format("%,.2f", v);
  }
}
