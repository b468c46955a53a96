package io.objectcommit.direct;

import io.objectcommit.direct.impl.DirectCommitEngine;
import io.objectcommit.store.ObjectStore;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Removes the files of a job that never committed (its driver died, or its abort failed), using the job's task
 * records under {@code <output>/_objectcommit_direct/<job id>/}; {@code objectcommit direct-cleanup} runs it. A job
 * whose commit marker exists (it finished committing but not its clean-up) keeps its files; only its bookkeeping
 * goes.
 */
public final class DirectJobCleaner implements AutoCloseable {

  private final DirectCommitEngine engine;
  private final ObjectStore store;

  private DirectJobCleaner(DirectCommitEngine engine, ObjectStore store) {
    this.engine = engine;
    this.store = store;
  }

  /** Opens the store of the output directory {@code output} (for example {@code s3a://bucket/table}). */
  public static DirectJobCleaner open(Path output, Configuration conf) throws IOException {
    DirectCommitEngine engine = new DirectCommitEngine(output, conf, "objectcommit direct-cleanup");
    return new DirectJobCleaner(engine, engine.openStore(conf));
  }

  /** The job ids with bookkeeping under the output (uncommitted, or whose clean-up did not finish). */
  public List<String> pendingJobs() throws IOException {
    return engine.pendingJobs(store);
  }

  /**
   * Removes one job's files (unless it had committed) and its bookkeeping.
   *
   * @return the number of data files deleted
   */
  public int clean(String jobId) throws IOException {
    return engine.cleanup(store, jobId, true);
  }

  /** Where the output is, for messages. */
  public String location() {
    return String.valueOf(engine.location());
  }

  @Override
  public void close() throws IOException {
    store.close();
  }
}
