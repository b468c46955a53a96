package io.objectcommit.store.statistics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSnapshot;
import org.apache.hadoop.fs.statistics.MeanStatistic;

/**
 * Thread-safe per-operation request statistics: count, failures, retries (in all, and apart: after throttling and
 * after transient failures), bytes, total and maximum duration.
 * Operation names come from {@link StoreStatisticNames}; unknown names are accepted too, so that wrappers can
 * count their own operations.
 */
public final class StoreStatistics {

  /** Why a request is retried. */
  public enum RetryKind {
    /** The store asked to slow down (503 SlowDown, 429 and the throttling error codes). */
    THROTTLED,
    /** Anything else retried: 500/502/504, 409 ConditionalRequestConflict, resets, timeouts, refused connects. */
    TRANSIENT
  }

  /** The live counters of one operation. */
  private static final class Op {
    final AtomicLong count = new AtomicLong();
    final AtomicLong failures = new AtomicLong();
    final AtomicLong retries = new AtomicLong();
    final AtomicLong retriesThrottled = new AtomicLong();
    final AtomicLong retriesTransient = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();
    final AtomicLong durationMs = new AtomicLong();
    final AtomicLong maxMs = new AtomicLong();
  }

  private final Map<String, Op> ops = new ConcurrentHashMap<>();

  public StoreStatistics() {
    for (String name : StoreStatisticNames.OPERATIONS) {
      ops.put(name, new Op());
    }
  }

  private Op op(String name) {
    return ops.computeIfAbsent(Objects.requireNonNull(name, "name"), n -> new Op());
  }

  /** Records one request that ended, successfully or not, and how long it took. */
  public void recordRequest(String name, long durationMs, boolean failed) {
    Op o = op(name);
    o.count.incrementAndGet();
    if (failed) {
      o.failures.incrementAndGet();
    }
    o.durationMs.addAndGet(durationMs);
    o.maxMs.accumulateAndGet(durationMs, Math::max);
  }

  /** Records that a request is about to be retried, and why. */
  public void recordRetry(String name, RetryKind kind) {
    Op o = op(name);
    o.retries.incrementAndGet();
    (kind == RetryKind.THROTTLED ? o.retriesThrottled : o.retriesTransient).incrementAndGet();
  }

  /** Records a retry after a transient failure ({@link #recordRetry(String, RetryKind)} with TRANSIENT). */
  public void recordRetry(String name) {
    recordRetry(name, RetryKind.TRANSIENT);
  }

  /** Records bytes sent or received by a request. */
  public void recordBytes(String name, long bytes) {
    op(name).bytes.addAndGet(bytes);
  }

  /** An immutable copy of the current values. */
  public Snapshot snapshot() {
    Map<String, Snapshot.OpValues> m = new LinkedHashMap<>();
    ops.keySet().stream().sorted().forEach(name -> {
      Op o = ops.get(name);
      m.put(name, new Snapshot.OpValues(o.count.get(), o.failures.get(), o.retries.get(),
          o.retriesThrottled.get(), o.retriesTransient.get(), o.bytes.get(), o.durationMs.get(), o.maxMs.get()));
    });
    return new Snapshot(m);
  }

  /** The values as Hadoop {@link IOStatistics} (a snapshot, serialisable to JSON as S3A's _SUCCESS does). */
  public IOStatistics toIOStatistics() {
    return snapshot().toIOStatistics();
  }

  /** Immutable values of every operation. */
  public static final class Snapshot {

    /** Values of one operation. */
    public static final class OpValues {
      public final long count;
      public final long failures;
      /** All retries: {@code retriesThrottled + retriesTransient}. */
      public final long retries;
      public final long retriesThrottled;
      public final long retriesTransient;
      public final long bytes;
      public final long durationMs;
      public final long maxMs;

      public OpValues(long count, long failures, long retries, long retriesThrottled, long retriesTransient,
          long bytes, long durationMs, long maxMs) {
        this.count = count;
        this.failures = failures;
        this.retries = retries;
        this.retriesThrottled = retriesThrottled;
        this.retriesTransient = retriesTransient;
        this.bytes = bytes;
        this.durationMs = durationMs;
        this.maxMs = maxMs;
      }

      /** Without the kinds of retries: all counted as transient. */
      public OpValues(long count, long failures, long retries, long bytes, long durationMs, long maxMs) {
        this(count, failures, retries, 0, retries, bytes, durationMs, maxMs);
      }
    }

    private final Map<String, OpValues> ops;

    Snapshot(Map<String, OpValues> ops) {
      this.ops = Collections.unmodifiableMap(ops);
    }

    public Map<String, OpValues> operations() {
      return ops;
    }

    /** Values of one operation (all zero if it never ran). */
    public OpValues get(String name) {
      return ops.getOrDefault(name, new OpValues(0, 0, 0, 0, 0, 0, 0, 0));
    }

    /** Requests of one operation. */
    public long count(String name) {
      return get(name).count;
    }

    /** Requests of all operations. */
    public long totalRequests() {
      return ops.values().stream().mapToLong(v -> v.count).sum();
    }

    /** The difference {@code this - earlier}, for counting the requests of one piece of work. */
    public Snapshot minus(Snapshot earlier) {
      Map<String, OpValues> m = new LinkedHashMap<>();
      ops.forEach((name, v) -> {
        OpValues e = earlier.get(name);
        m.put(name, new OpValues(v.count - e.count, v.failures - e.failures, v.retries - e.retries,
            v.retriesThrottled - e.retriesThrottled, v.retriesTransient - e.retriesTransient, v.bytes - e.bytes,
            v.durationMs - e.durationMs, v.maxMs));
      });
      return new Snapshot(m);
    }

    /**
     * Flat counters: {@code op}, {@code op.failures}, {@code op.retries}, {@code op.retries_throttled},
     * {@code op.retries_transient}, {@code op.bytes}, {@code op.duration_ms}.
     */
    public Map<String, Long> counters() {
      Map<String, Long> c = new LinkedHashMap<>();
      ops.forEach((name, v) -> {
        c.put(name, v.count);
        c.put(name + StoreStatisticNames.SUFFIX_FAILURES, v.failures);
        c.put(name + StoreStatisticNames.SUFFIX_RETRIES, v.retries);
        c.put(name + StoreStatisticNames.SUFFIX_RETRIES_THROTTLED, v.retriesThrottled);
        c.put(name + StoreStatisticNames.SUFFIX_RETRIES_TRANSIENT, v.retriesTransient);
        c.put(name + StoreStatisticNames.SUFFIX_BYTES, v.bytes);
        c.put(name + StoreStatisticNames.SUFFIX_DURATION, v.durationMs);
      });
      return c;
    }

    public IOStatistics toIOStatistics() {
      IOStatisticsSnapshot s = new IOStatisticsSnapshot();
      counters().forEach((k, v) -> s.counters().put(k, v));
      ops.forEach((name, v) -> {
        s.maximums().put(name + StoreStatisticNames.SUFFIX_MAX, v.maxMs);
        s.meanStatistics().put(name + StoreStatisticNames.SUFFIX_MEAN, new MeanStatistic(v.count, v.durationMs));
      });
      return s;
    }

    /** Non-zero operations as {@code op=count}, for one log line. */
    @Override
    public String toString() {
      StringBuilder b = new StringBuilder();
      ops.forEach((name, v) -> {
        if (v.count > 0) {
          b.append(b.length() == 0 ? "" : ", ").append(name).append('=').append(v.count);
          if (v.retries > 0) {
            b.append(" (").append(v.retries).append(" retries");
            if (v.retriesThrottled > 0) {
              b.append(", ").append(v.retriesThrottled).append(" throttled");
            }
            b.append(')');
          }
        }
      });
      return b.length() == 0 ? "no requests" : b.toString();
    }
  }
}
