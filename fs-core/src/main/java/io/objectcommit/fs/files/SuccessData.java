package io.objectcommit.fs.files;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.statistics.IOStatisticsSnapshot;

/**
 * The {@code _SUCCESS} marker a committer writes when, and only when, a job commit succeeds: JSON with the fields
 * of the S3A committers' {@code org.apache.hadoop.fs.s3a.commit.files.SuccessData} (so that tools which read
 * those markers read ours), plus our {@code type} and {@code version}.
 *
 * <p>{@code filenames} holds at most a configured number of the committed files (the S3A committers keep 100);
 * {@code metrics.files_committed} always has the full count. {@code iostatistics} carries the store request
 * statistics of the job (a Hadoop {@link IOStatisticsSnapshot}, serialised as S3A does).
 */
public final class SuccessData extends JsonRecord {

  /** Our record type: {@value}. */
  public static final String TYPE = "io.objectcommit.fs.files.SuccessData";
  /** The version this code writes: {@value}. */
  public static final int VERSION = 1;
  /** The {@code name} field of S3A's marker, which readers check: {@value}. */
  public static final String S3A_NAME = "org.apache.hadoop.fs.s3a.commit.files.SuccessData/1";
  /** {@code metrics} key with the number of committed files (all of them, not only those listed): {@value}. */
  public static final String METRIC_FILES_COMMITTED = "files_committed";
  /** {@code metrics} key with the number of committed bytes: {@value}. */
  public static final String METRIC_BYTES_COMMITTED = "bytes_committed";

  /** The codec of this record. */
  public static JsonRecordCodec<SuccessData> codec() {
    return new JsonRecordCodec<>(SuccessData.class, TYPE, 1, VERSION);
  }

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
  private IOStatisticsSnapshot iostatistics = new IOStatisticsSnapshot();

  public SuccessData() {
    super(TYPE, VERSION);
  }

  @Override
  public void validate() {
    check(S3A_NAME.equals(name), "name is " + name + ", expected " + S3A_NAME);
    check(committer != null && !committer.isEmpty(), "no committer");
    check(jobId != null && !jobId.isEmpty(), "no jobId");
    check(timestamp > 0, "no timestamp");
    check(filenames != null && metrics != null && diagnostics != null, "missing collections");
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

  public IOStatisticsSnapshot getIostatistics() {
    return iostatistics;
  }

  public void setIostatistics(IOStatisticsSnapshot iostatistics) {
    this.iostatistics = iostatistics;
  }
}
