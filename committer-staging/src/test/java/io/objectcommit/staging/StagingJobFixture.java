package io.objectcommit.staging;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.commit.JobId;
import io.objectcommit.staging.impl.JobCommitStage;
import io.objectcommit.staging.impl.JobLayout;
import io.objectcommit.staging.impl.SuccessMarker;
import io.objectcommit.staging.impl.TaskCommitStage;
import io.objectcommit.store.testing.InMemoryObjectStore;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * One staging job writing to {@code bucket/warehouse/table/} of an in-memory store, for the protocol tests: its
 * settings (change {@link #conf} before a stage runs), task and job commits, and what readers of the table see.
 */
final class StagingJobFixture {

  static final String DEST = "warehouse/table/";

  final InMemoryObjectStore store = InMemoryObjectStore.create("bucket");
  final Configuration conf = new Configuration(false);
  final String jobId;
  final JobLayout layout;

  StagingJobFixture(String jobId) {
    this.jobId = jobId;
    this.layout = new JobLayout("bucket", "warehouse/table", jobId);
  }

  StagingOptions options() {
    return StagingOptions.from(conf, "bucket", null);
  }

  /** The name Spark gives file {@code n} of task {@code task} of this job. */
  String name(int task, int n) {
    return "part-0000" + task + "-" + jobId + "-c00" + n + ".parquet";
  }

  /**
   * Writes {@code files} (relative path to content), each with the checksum file the local file system writes
   * beside it (never uploaded), into a fresh attempt directory under {@code tmp}, and commits the task.
   */
  TaskCommitStage.Result commitTask(File tmp, int task, int count, int attempt, Map<String, byte[]> files)
      throws IOException {
    File dir = new File(tmp, "attempt_" + task + "_" + attempt);
    for (Map.Entry<String, byte[]> e : files.entrySet()) {
      File f = new File(dir, e.getKey());
      f.getParentFile().mkdirs();
      Files.write(f.toPath(), e.getValue());
      Files.write(new File(f.getParentFile(), "." + f.getName() + ".crc").toPath(), new byte[] {1, 2});
    }
    return new TaskCommitStage(store, layout, options()).commit(dir, task, count, "attempt_" + task + "_" + attempt,
        "host");
  }

  /** Job commit with a {@code _SUCCESS} writer. */
  JobCommitStage.Summary commitJob() throws IOException {
    return commitJob(Map.of());
  }

  /** Job commit with a {@code _SUCCESS} writer, handed the records {@code handedOver} (by key). */
  JobCommitStage.Summary commitJob(Map<String, CommittedTaskRecord> handedOver) throws IOException {
    return new JobCommitStage(store, layout, options(), handedOver,
        new SuccessMarker("test", JobId.of(jobId, "test"), Map.of())).commit();
  }

  /** The table's keys a reader sees: neither the staging directory nor {@code _SUCCESS}. */
  List<String> visible() {
    List<String> keys = store.keys(DEST);
    keys.removeIf(k -> k.startsWith(DEST + ".objectcommit-staging/") || k.equals(DEST + "_SUCCESS"));
    return keys;
  }
}
