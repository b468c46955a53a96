package io.objectcommit.commit.files;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.objectcommit.store.files.JsonRecord;
import io.objectcommit.store.files.JsonRecordCodec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSnapshot;
import org.apache.hadoop.fs.statistics.MeanStatistic;

/**
 * The {@code _SUCCESS} marker a committer writes when, and only when, a job commit succeeds: JSON with the fields
 * of the S3A committers' {@code org.apache.hadoop.fs.s3a.commit.files.SuccessData} (so that tools which read
 * those markers read ours), plus our {@code type} and {@code version}.
 *
 * <p>{@code filenames} holds at most a configured number of the committed files (the S3A committers keep 100);
 * {@code metrics.files_committed} always has the full count. {@code iostatistics} carries the store request
 * statistics of the job in the JSON form of a Hadoop {@link IOStatisticsSnapshot} ({@code counters},
 * {@code gauges}, {@code minimums}, {@code maximums}, {@code meanstatistics} with {@code samples} and {@code sum}).
 * It is written by our own mapping, not by the snapshot's Jackson annotations, which Spark's shaded Hadoop
 * client ({@code hadoop-client-api}) relocates out of Jackson's sight.
 */
public final class SuccessData extends JsonRecord {

  /** Our record type: {@value}. */
  public static final String TYPE = "objectcommit/core/success";
  /** The version this code writes: {@value}. */
  public static final int VERSION = 1;
  /** The {@code name} field of S3A's marker, which readers check: {@value}. */
  public static final String S3A_NAME = "org.apache.hadoop.fs.s3a.commit.files.SuccessData/1";
  /** {@code metrics} key with the number of committed files (all of them, not only those listed): {@value}. */
  public static final String METRIC_FILES_COMMITTED = "files_committed";
  /** {@code metrics} key with the number of committed bytes: {@value}. */
  public static final String METRIC_BYTES_COMMITTED = "bytes_committed";

  /** Reads and writes {@code _SUCCESS} markers. */
  public static final JsonRecordCodec<SuccessData> CODEC = new JsonRecordCodec<>(SuccessData.class, TYPE, 1, VERSION);

  @JsonProperty("name")
  private String name = S3A_NAME;
  @JsonProperty("timestamp")
  private long timestamp;
  @JsonProperty("date")
  private String date;
  @JsonProperty("hostname")
  private String hostname;
  @JsonProperty("committer")
  private String committer;
  @JsonProperty("description")
  private String description;
  @JsonProperty("jobId")
  private String jobId;
  @JsonProperty("jobIdSource")
  private String jobIdSource;
  @JsonProperty("metrics")
  private Map<String, Long> metrics = new LinkedHashMap<>();
  @JsonProperty("diagnostics")
  private Map<String, String> diagnostics = new LinkedHashMap<>();
  @JsonProperty("filenames")
  private List<String> filenames = new ArrayList<>();
  @JsonProperty("iostatistics")
  private Statistics iostatistics = new Statistics();

  /** The JSON form of a Hadoop {@link IOStatisticsSnapshot}. */
  public static final class Statistics {
    @JsonProperty("counters")
    public Map<String, Long> counters = new TreeMap<>();
    @JsonProperty("gauges")
    public Map<String, Long> gauges = new TreeMap<>();
    @JsonProperty("minimums")
    public Map<String, Long> minimums = new TreeMap<>();
    @JsonProperty("maximums")
    public Map<String, Long> maximums = new TreeMap<>();
    @JsonProperty("meanstatistics")
    public Map<String, Mean> meanstatistics = new TreeMap<>();

    /** A mean: samples and their sum. */
    public static final class Mean {
      @JsonProperty("samples")
      public long samples;
      @JsonProperty("sum")
      public long sum;
    }

    /** Copies Hadoop statistics. */
    public static Statistics of(IOStatistics io) {
      Statistics s = new Statistics();
      s.counters.putAll(io.counters());
      s.gauges.putAll(io.gauges());
      s.minimums.putAll(io.minimums());
      s.maximums.putAll(io.maximums());
      io.meanStatistics().forEach((k, v) -> {
        Mean m = new Mean();
        m.samples = v.getSamples();
        m.sum = v.getSum();
        s.meanstatistics.put(k, m);
      });
      return s;
    }

    /** As a Hadoop snapshot. */
    public IOStatisticsSnapshot toSnapshot() {
      IOStatisticsSnapshot io = new IOStatisticsSnapshot();
      io.counters().putAll(counters);
      io.gauges().putAll(gauges);
      io.minimums().putAll(minimums);
      io.maximums().putAll(maximums);
      meanstatistics.forEach((k, m) -> io.meanStatistics().put(k, new MeanStatistic(m.samples, m.sum)));
      return io;
    }
  }

  public SuccessData() {
    super(TYPE, VERSION);
  }

  @Override
  public void validate() {
    check(S3A_NAME.equals(name), "name is " + name + ", expected " + S3A_NAME);
    check(committer != null && !committer.isEmpty(), "no committer");
    check(jobId != null && !jobId.isEmpty(), "no jobId");
    check(timestamp > 0, "no timestamp");
    check(filenames != null && metrics != null && diagnostics != null && iostatistics != null,
        "missing collections");
  }

  public String getName() {
    return name;
  }

  public long getTimestamp() {
    return timestamp;
  }

  public void setTimestamp(long timestamp) {
    this.timestamp = timestamp;
  }

  public String getDate() {
    return date;
  }

  public void setDate(String date) {
    this.date = date;
  }

  public String getHostname() {
    return hostname;
  }

  public void setHostname(String hostname) {
    this.hostname = hostname;
  }

  public String getCommitter() {
    return committer;
  }

  public void setCommitter(String committer) {
    this.committer = committer;
  }

  public String getDescription() {
    return description;
  }

  public void setDescription(String description) {
    this.description = description;
  }

  public String getJobId() {
    return jobId;
  }

  public void setJobId(String jobId) {
    this.jobId = jobId;
  }

  public String getJobIdSource() {
    return jobIdSource;
  }

  public void setJobIdSource(String jobIdSource) {
    this.jobIdSource = jobIdSource;
  }

  public Map<String, Long> getMetrics() {
    return metrics;
  }

  public void setMetrics(Map<String, Long> metrics) {
    this.metrics = new LinkedHashMap<>(metrics);
  }

  public Map<String, String> getDiagnostics() {
    return diagnostics;
  }

  public void setDiagnostics(Map<String, String> diagnostics) {
    this.diagnostics = new LinkedHashMap<>(diagnostics);
  }

  public List<String> getFilenames() {
    return filenames;
  }

  public void setFilenames(List<String> filenames) {
    this.filenames = new ArrayList<>(filenames);
  }

  public Statistics getIostatistics() {
    return iostatistics;
  }

  public void setIostatistics(Statistics iostatistics) {
    this.iostatistics = iostatistics;
  }

  /** Sets the statistics from Hadoop's. */
  public void setHadoopStatistics(IOStatistics io) {
    this.iostatistics = Statistics.of(io);
  }
}
