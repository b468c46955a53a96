package io.objectcommit.staging.impl;

import io.objectcommit.fs.ObjectStore;
import java.io.IOException;

/** Writes {@code _SUCCESS} at the end of job commit. */
public final class SuccessMarker implements JobCommitStage.SuccessWriter {

  private final String committer;
  private final String hostname;

  public SuccessMarker(String committer, String hostname) {
    this.committer = committer;
    this.hostname = hostname;
  }

  @Override
  public void write(ObjectStore store, JobLayout layout, JobCommitStage.Summary summary) throws IOException {
    // Filled in once fs-core's SuccessData (issue 6) is merged.
  }
}
