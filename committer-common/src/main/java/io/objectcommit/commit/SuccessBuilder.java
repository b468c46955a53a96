package io.objectcommit.commit;

import io.objectcommit.commit.files.SuccessData;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.WriteCondition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.statistics.IOStatistics;

/**
 * Builds and writes the {@code _SUCCESS} marker of a committed job (the store module's {@link SuccessData}, with the S3A
 * committers' fields): committer, job id and its source, host, time, {@code metrics} (always with
 * {@link CommitterStatistics#FILES_COMMITTED} and {@link CommitterStatistics#BYTES_COMMITTED}),
 * {@code diagnostics}, the first file names, and the job commit's store requests as {@code iostatistics} (plus
 * the tasks' own, prefixed {@value CommitterStatistics#TASK_PREFIX}).
 */
public final class SuccessBuilder {

  private final String committer;
  private final JobId jobId;
  private final Map<String, Long> metrics = new LinkedHashMap<>();
  private final Map<String, String> diagnostics = new LinkedHashMap<>();
  private final List<String> filenames = new ArrayList<>();
  private final Map<String, Long> taskCounters = new LinkedHashMap<>();
  private String description = "";
  private String hostname = Hostnames.local();
  private long timestamp = -1;

  /**
   * @param committer the committer's name ({@code committer} field)
   * @param jobId the job's id and its source
   */
  public SuccessBuilder(String committer, JobId jobId) {
    this.committer = committer;
    this.jobId = jobId;
  }

  public SuccessBuilder description(String text) {
    this.description = text;
    return this;
  }

  /** Files and bytes committed, the two metrics every marker has. */
  public SuccessBuilder committed(long files, long bytes) {
    metrics.put(CommitterStatistics.FILES_COMMITTED, files);
    metrics.put(CommitterStatistics.BYTES_COMMITTED, bytes);
    return this;
  }

  public SuccessBuilder metric(String name, long value) {
    metrics.put(name, value);
    return this;
  }

  public SuccessBuilder metrics(Map<String, Long> values) {
    metrics.putAll(values);
    return this;
  }

  public SuccessBuilder diagnostic(String name, String value) {
    diagnostics.put(name, value);
    return this;
  }

  /** A committed file, by key; the {@code filenames} field lists them as {@code /key}. */
  public SuccessBuilder filename(String key) {
    filenames.add(key.startsWith("/") ? key : "/" + key);
    return this;
  }

  /** Adds task attempts' store counters (summed; prefixed {@value CommitterStatistics#TASK_PREFIX}). */
  public SuccessBuilder taskCounters(Map<String, Long> counters) {
    counters.forEach((k, v) -> taskCounters.merge(k, v, Long::sum));
    return this;
  }

  /** For tests. */
  SuccessBuilder hostname(String name) {
    this.hostname = name;
    return this;
  }

  /** For tests. */
  SuccessBuilder timestamp(long millis) {
    this.timestamp = millis;
    return this;
  }

  /** The marker, with {@code iostatistics} from {@code jobStatistics} (the job commit's store requests). */
  public SuccessData build(IOStatistics jobStatistics) {
    SuccessData s = new SuccessData();
    long now = timestamp >= 0 ? timestamp : System.currentTimeMillis();
    s.setTimestamp(now);
    s.setDate(new Date(now).toString());
    s.setHostname(hostname);
    s.setCommitter(committer);
    s.setDescription(description);
    s.setJobId(jobId.id());
    s.setJobIdSource(jobId.source());
    Map<String, Long> m = new LinkedHashMap<>();
    m.put(CommitterStatistics.FILES_COMMITTED, 0L);
    m.put(CommitterStatistics.BYTES_COMMITTED, 0L);
    m.putAll(metrics);
    s.setMetrics(m);
    s.setDiagnostics(new LinkedHashMap<>(diagnostics));
    s.setFilenames(new ArrayList<>(filenames));
    SuccessData.Statistics io = jobStatistics == null ? new SuccessData.Statistics()
        : SuccessData.Statistics.of(jobStatistics);
    taskCounters.forEach((k, v) -> io.counters.merge(CommitterStatistics.TASK_PREFIX + k, v, Long::sum));
    s.setIostatistics(io);
    return s;
  }

  /** Builds the marker with the store's statistics and writes it to {@code key} (one PUT). */
  public SuccessData write(ObjectStore store, String key) throws IOException {
    SuccessData s = build(store.getIOStatistics());
    SuccessData.CODEC.save(store, key, s, WriteCondition.none());
    return s;
  }
}
