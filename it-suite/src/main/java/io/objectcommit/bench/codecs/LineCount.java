package io.objectcommit.bench.codecs;

import io.objectcommit.bench.codecs.CodecBenchSettings.Location;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;

/**
 * Counts a file's lines as seed 004 does ({@code sc.textFile(path).count()}, Spark's default partitioning) in a
 * fresh session carrying exactly the format's user settings, and measures the count. A wrong count fails the run.
 */
final class LineCount {

  private static final long LISTENER_WAIT_MS = 30_000;

  private final String master;
  private final S3FaultProxy proxy;

  /**
   * @param master Spark master
   * @param proxy the proxy in front of the S3 endpoint (its settings reach S3A; its byte and request counts are
   *     reset before each count on S3)
   */
  LineCount(String master, S3FaultProxy proxy) {
    this.master = master;
    this.proxy = proxy;
  }

  Measurement count(TextFormat format, Location location, String path, long expectedLines, int run) {
    Map<String, String> hadoop = new HashMap<>();
    if (location == Location.S3) {
      hadoop.putAll(proxy.endpoint().s3aOptions());
      // users' default: one S3A instance per bucket and JVM, reused by every task (SparkSessions turns it off)
      hadoop.put("fs.s3a.impl.disable.cache", "false");
    }
    hadoop.putAll(format.hadoopSettings());
    try (SparkSession spark = SparkSessions.local("codec-bench-" + format.key(), master, hadoop, Map.of())) {
      TaskCpu cpu = new TaskCpu();
      spark.sparkContext().addSparkListener(cpu);
      proxy.resetBytes();
      proxy.resetCounts();
      long jvm0 = processCpuNanos();
      long t0 = System.nanoTime();
      org.apache.spark.api.java.JavaRDD<String> lines = org.apache.spark.api.java.JavaSparkContext.fromSparkContext(
          spark.sparkContext()).textFile(path);
      long count = lines.count();
      long wallMs = (System.nanoTime() - t0) / 1_000_000;
      int partitions = lines.getNumPartitions();
      cpu.awaitTasks(partitions);
      long jvmCpu = processCpuNanos() - jvm0;
      boolean s3 = location == Location.S3;
      Measurement m = new Measurement(format, location, run, partitions, wallMs,
          cpu.longestMs.get(), cpu.nanos.get(), jvmCpu,
          s3 ? proxy.bytesToClients() : 0, s3 ? proxy.counts().total() : 0, count);
      if (count != expectedLines) {
        throw new IllegalStateException(String.format("%s on %s: Spark counted %,d lines, the text has %,d",
            format.label(), location.label(), count, expectedLines));
      }
      return m;
    } finally {
      closeFileSystems();
    }
  }

  /**
   * Each count starts cold: the S3A instances the count used are closed, so that no read of a later count is served
   * from what this one's streams kept (Hadoop 3.5's default S3A input stream, the Analytics Accelerator, caches an
   * object's blocks in the instance: a second format reading the same {@code .gz} file in this JVM read almost
   * nothing from S3).
   */
  private static void closeFileSystems() {
    try {
      FileSystem.closeAll();
    } catch (IOException e) {
      throw new UncheckedIOException("closing the counts' file systems", e);
    }
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** Sums the CPU Spark measured in each task; events arrive on the listener bus, after the job may have ended. */
  private static final class TaskCpu extends SparkListener {

    final AtomicLong nanos = new AtomicLong();
    final AtomicInteger tasks = new AtomicInteger();
    final AtomicLong longestMs = new AtomicLong();

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
      TaskMetrics metrics = end.taskMetrics();
      if (metrics != null) {
        nanos.addAndGet(metrics.executorCpuTime() + metrics.executorDeserializeCpuTime());
      }
      longestMs.accumulateAndGet(end.taskInfo().duration(), Math::max);
      tasks.incrementAndGet();
    }

    void awaitTasks(int n) {
      long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LISTENER_WAIT_MS);
      while (tasks.get() < n) {
        if (System.nanoTime() > until) {
          throw new IllegalStateException("the listener saw " + tasks.get() + " of " + n + " task ends");
        }
        try {
          Thread.sleep(10);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while waiting for task ends", e);
        }
      }
    }
  }
}
