package io.objectcommit.staging.impl;

import io.objectcommit.fs.ObjectStore;
import io.objectcommit.fs.Payload;
import io.objectcommit.fs.WriteCondition;
import io.objectcommit.fs.files.SuccessData;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes {@code _SUCCESS} at the end of job commit: S3A's {@code SuccessData} fields (fs-core's {@link SuccessData}),
 * with the job's statistics as {@code metrics} and the job commit's store requests as {@code iostatistics}.
 */
public final class SuccessMarker implements JobCommitStage.SuccessWriter {

  private final String committer;
  private final String hostname;
  private final String jobIdSource;
  private final Map<String, String> diagnostics;

  public SuccessMarker(String committer, String hostname, String jobIdSource, Map<String, String> diagnostics) {
    this.committer = committer;
    this.hostname = hostname;
    this.jobIdSource = jobIdSource;
    this.diagnostics = new LinkedHashMap<>(diagnostics);
  }

  @Override
  public void write(ObjectStore store, JobLayout layout, JobCommitStage.Summary summary) throws IOException {
    SuccessData s = new SuccessData();
    long now = System.currentTimeMillis();
    s.setTimestamp(now);
    s.setDate(new Date(now).toString());
    s.setHostname(hostname);
    s.setCommitter(committer);
    s.setDescription("objectcommit staging committer: " + summary.get(StagingStatistics.JOB_FILES)
        + " files completed from pending uploads");
    s.setJobId(layout.jobId());
    s.setJobIdSource(jobIdSource);
    Map<String, Long> metrics = new LinkedHashMap<>(summary.statistics());
    metrics.put(SuccessData.METRIC_FILES_COMMITTED, summary.get(StagingStatistics.JOB_FILES));
    metrics.put(SuccessData.METRIC_BYTES_COMMITTED, summary.get(StagingStatistics.JOB_BYTES));
    s.setMetrics(metrics);
    s.setDiagnostics(new LinkedHashMap<>(diagnostics));
    s.setFilenames(new ArrayList<>(summary.filenames()));
    s.setHadoopStatistics(store.getIOStatistics());
    store.put(layout.successKey(), Payload.of(SuccessData.codec().toBytes(s)), WriteCondition.none());
  }
}
