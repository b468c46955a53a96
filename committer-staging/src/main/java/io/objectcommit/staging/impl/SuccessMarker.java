package io.objectcommit.staging.impl;

import io.objectcommit.commit.CommitterStatistics;
import io.objectcommit.commit.JobId;
import io.objectcommit.commit.SuccessBuilder;
import io.objectcommit.store.ObjectStore;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes {@code _SUCCESS} at the end of the staging job commit with the committers' one builder
 * ({@link SuccessBuilder}): the job's statistics as {@code metrics}, the job commit's store requests as
 * {@code iostatistics}.
 */
public final class SuccessMarker implements JobCommitStage.SuccessWriter {

  private final String committer;
  private final JobId jobId;
  private final Map<String, String> diagnostics;

  public SuccessMarker(String committer, JobId jobId, Map<String, String> diagnostics) {
    this.committer = committer;
    this.jobId = jobId;
    this.diagnostics = new LinkedHashMap<>(diagnostics);
  }

  @Override
  public void write(ObjectStore store, JobLayout layout, JobCommitStage.Summary summary) throws IOException {
    long files = summary.get(CommitterStatistics.FILES_COMMITTED);
    SuccessBuilder s = new SuccessBuilder(committer, jobId)
        .description("objectcommit staging committer: " + files + " files completed from pending uploads")
        .metrics(summary.statistics())
        .committed(files, summary.get(CommitterStatistics.BYTES_COMMITTED));
    diagnostics.forEach(s::diagnostic);
    summary.filenames().forEach(s::filename);
    s.write(store, layout.successKey());
  }
}
