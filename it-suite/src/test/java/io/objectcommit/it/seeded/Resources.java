package io.objectcommit.it.seeded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.testsupport.proxy.S3FaultProxy;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * What a seeded run leaves in the driver JVM: live threads, heap in use after a GC, and the client connections
 * still open at the proxy once Spark and the file systems are closed. The first run of a test class is the
 * baseline; later runs must not grow beyond it by more than a small slack (retries must not leak).
 */
final class Resources {

  /** Threads a later run may leave beyond the first (timers and pools that start lazily). */
  static final int THREAD_SLACK = 8;
  /** Heap a later run may hold beyond the first after a GC, in MB. */
  static final long HEAP_SLACK_MB = 96;

  /** A sample after a run. */
  static final class Sample {
    final int threads;
    final long heapMb;
    final int openConnections;
    final List<String> threadNames;

    Sample(int threads, long heapMb, int openConnections, List<String> threadNames) {
      this.threads = threads;
      this.heapMb = heapMb;
      this.openConnections = openConnections;
      this.threadNames = threadNames;
    }

    @Override
    public String toString() {
      return threads + " threads, " + heapMb + " MB heap, " + openConnections + " open connections";
    }
  }

  private static final Map<Class<?>, Sample> FIRST = new ConcurrentHashMap<>();

  private Resources() {
  }

  /**
   * Samples the JVM after a run: waits up to 10 s for the proxy's client connections to close (S3 clients close
   * their pools with their file systems) and, given the first run's sample, up to 15 s for threads that stop
   * asynchronously (Spark's RPC and shuffle event loops) to be gone; then GCs and counts. The proxy's own
   * threads (test harness) are not counted.
   */
  static Sample after(S3FaultProxy proxy, Sample first) {
    long deadline = System.currentTimeMillis() + 10_000;
    while (proxy.openConnections() > 0 && System.currentTimeMillis() < deadline) {
      pause(100);
    }
    deadline = System.currentTimeMillis() + 15_000;
    while (first != null && threadNames().size() > first.threads + THREAD_SLACK
        && System.currentTimeMillis() < deadline) {
      pause(250);
    }
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 3; i++) {
      System.gc();
      pause(100);
    }
    long heapMb = memory.getHeapMemoryUsage().getUsed() >> 20;
    List<String> names = threadNames();
    return new Sample(names.size(), heapMb, proxy.openConnections(), names);
  }

  /**
   * The first run of {@code owner} (a test class) records its sample; a later run must leave no open connection,
   * and no more threads and heap than the first plus the slack.
   */
  static void assertBounded(Class<?> owner, Sample sample, String what) {
    assertEquals(0, sample.openConnections, "no connection left open once Spark and S3A are closed: " + what);
    Sample first = FIRST.putIfAbsent(owner, sample);
    if (first == null) {
      return;
    }
    assertTrue(sample.threads <= first.threads + THREAD_SLACK, "threads: " + sample + ", after the first run: "
        + first + "; more of: " + extraThreads(first, sample) + "; " + what);
    assertTrue(sample.heapMb <= first.heapMb + HEAP_SLACK_MB, "heap: " + sample + ", after the first run: " + first
        + "; " + what);
  }

  /** The first run's sample of {@code owner}, or null. */
  static Sample first(Class<?> owner) {
    return FIRST.get(owner);
  }

  private static List<String> threadNames() {
    List<String> names = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive() && !t.getName().startsWith("s3-proxy-")) {
        names.add(t.getName().replaceAll("[0-9]+", "N"));
      }
    }
    names.sort(null);
    return names;
  }

  /** Thread names (digits folded) that {@code later} has more of than {@code first}, for a failure message. */
  static String extraThreads(Sample first, Sample later) {
    Map<String, Long> a = first.threadNames.stream().collect(Collectors.groupingBy(n -> n, Collectors.counting()));
    Map<String, Long> b = later.threadNames.stream().collect(Collectors.groupingBy(n -> n, Collectors.counting()));
    return b.entrySet().stream().filter(e -> e.getValue() > a.getOrDefault(e.getKey(), 0L))
        .map(e -> e.getKey() + " x" + (e.getValue() - a.getOrDefault(e.getKey(), 0L)))
        .collect(Collectors.joining(", "));
  }

  private static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while sampling resources", e);
    }
  }
}
