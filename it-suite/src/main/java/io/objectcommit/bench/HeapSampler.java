package io.objectcommit.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * Samples the JVM's used heap ({@link MemoryMXBean#getHeapMemoryUsage()}) every {@link #INTERVAL_MS} ms on a daemon
 * thread, so that the peak within a window known only afterwards (a job commit, from its log line) can be read.
 * Used heap includes garbage not yet collected; in local mode the driver shares the JVM with the executors, whose
 * tasks have finished before the job commit starts.
 */
public final class HeapSampler implements AutoCloseable {

  static final long INTERVAL_MS = 10;

  /**
   * The peak of a window.
   *
   * @param peakBytes the largest used heap sampled in the window
   * @param beforeBytes the last sample before the window (the heap the window started from)
   * @param samples samples in the window
   */
  public record Peak(long peakBytes, long beforeBytes, int samples) {
  }

  private record Sample(long millis, long usedBytes) {
  }

  private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
  private final List<Sample> samples = new ArrayList<>();
  private final Thread thread;
  private volatile boolean stopped;

  private HeapSampler() {
    thread = new Thread(this::loop, "objectcommit-bench-heap-sampler");
    thread.setDaemon(true);
  }

  static HeapSampler start() {
    HeapSampler s = new HeapSampler();
    s.thread.start();
    return s;
  }

  private void loop() {
    while (!stopped) {
      sample();
      try {
        Thread.sleep(INTERVAL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void sample() {
    Sample s = new Sample(System.currentTimeMillis(), memory.getHeapMemoryUsage().getUsed());
    synchronized (samples) {
      samples.add(s);
    }
  }

  /** The peak between {@code fromMillis} and {@code toMillis} (wall clock), with one sample taken now. */
  Peak peak(long fromMillis, long toMillis) {
    long peak = -1;
    long before = -1;
    int n = 0;
    synchronized (samples) {
      for (Sample s : samples) {
        if (s.millis() < fromMillis) {
          before = s.usedBytes();
        } else if (s.millis() <= toMillis) {
          peak = Math.max(peak, s.usedBytes());
          n++;
        }
      }
    }
    return new Peak(peak, before, n);
  }

  @Override
  public void close() {
    stopped = true;
    thread.interrupt();
    try {
      thread.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
