package io.objectcommit.readcache;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one Spark task read through the read cache: the streams it opened (a Parquet task opens a file two or three
 * times), summed into one INFO line when the task completes ({@link ReadCache#currentTask}). Streams still open
 * then (Spark closes a task's readers in completion listeners of its own, which may run after this one) count what
 * they read so far; only their unused read-ahead, counted at close, is missing. Thread-safe.
 */
final class TaskReads {

  /** The stream's logger: one setting silences both the task lines and the lines of streams outside a task. */
  private static final Logger LOG = LoggerFactory.getLogger(CachingInputStream.class);

  private final String task;
  private final String application;
  private final List<CachingInputStream> streams = new ArrayList<>();

  TaskReads(String task, String application) {
    this.task = task;
    this.application = application;
  }

  synchronized void add(CachingInputStream stream) {
    streams.add(stream);
  }

  /** The counters of the task's streams summed (names of {@link StreamStatistics}), and the objects they read. */
  Map<String, Long> totals(Set<ObjectIdentity> objects) {
    List<CachingInputStream> mine;
    synchronized (this) {
      mine = new ArrayList<>(streams);
    }
    Map<String, Long> sum = new LinkedHashMap<>();
    for (CachingInputStream s : mine) {
      objects.add(s.identity());
      s.statistics().forEach((k, v) -> sum.merge(k, v, Long::sum));
    }
    return sum;
  }

  /** Logs the task's line (when it opened a stream). */
  void log() {
    String line = line();
    if (line != null) {
      LOG.info("{}", line);
    }
  }

  /** The task's line: what its streams read, summed; null when it opened none. */
  String line() {
    Set<ObjectIdentity> objects = new HashSet<>();
    Map<String, Long> t = totals(objects);
    if (objects.isEmpty()) {
      return null;
    }
    int opens;
    synchronized (this) {
      opens = streams.size();
    }
    return "Read cache: " + task + (application == null ? "" : " of " + application) + " read "
        + t.get(StreamStatistics.BYTES_READ) + " bytes in " + opens + " opens of " + objects.size() + " objects: "
        + t.get(StreamStatistics.BYTES_FROM_CACHE) + " bytes from the cache (" + t.get(StreamStatistics.HITS)
        + " blocks), " + t.get(StreamStatistics.BYTES_FROM_STORE) + " from S3 (" + t.get(StreamStatistics.MISSES)
        + " GETs), requests saved " + t.get(StreamStatistics.REQUESTS_SAVED) + "; read ahead "
        + t.get(StreamStatistics.READ_AHEAD_USED) + " blocks (" + t.get(StreamStatistics.READ_AHEAD_UNUSED)
        + " unused)";
  }

  @Override
  public String toString() {
    return "TaskReads{" + task + "}";
  }
}
