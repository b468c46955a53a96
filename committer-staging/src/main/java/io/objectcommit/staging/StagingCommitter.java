package io.objectcommit.staging;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.commit.Hostnames;
import io.objectcommit.commit.JobId;
import io.objectcommit.commit.TaskRecordHandOver;
import io.objectcommit.staging.impl.BufferDirs;
import io.objectcommit.staging.impl.JobAbortStage;
import io.objectcommit.staging.impl.JobCommitStage;
import io.objectcommit.staging.impl.JobLayout;
import io.objectcommit.staging.impl.SuccessMarker;
import io.objectcommit.staging.impl.TaskCommitStage;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.ObjectStores;
import io.objectcommit.store.audit.AuditContext;
import io.objectcommit.store.guarantee.ProbeSite;
import io.objectcommit.store.spark.SparkRuntime;
import java.io.File;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The staging committer: tasks write to a local buffer directory; task commit uploads each file as an incomplete
 * multipart upload and saves a task record naming the uploads; job commit completes them. Nothing is visible in
 * the destination before job commit, and no step depends on listing the store. See docs/committer-staging.md.
 *
 * <p>This class is the directory variant unless {@link StagingConstants#COMMITTER} (or the subclass
 * {@link PartitionedStagingCommitter}) says {@code partitioned}.
 */
public class StagingCommitter extends PathOutputCommitter implements TaskRecordHandOver {

  private static final Logger LOG = LoggerFactory.getLogger(StagingCommitter.class);

  private final Path outputPath;
  private final Configuration conf;
  private final StagingOptions options;
  private final JobId jobId;
  private final JobLayout layout;
  private final BufferDirs bufferDirs;
  private final TaskAttemptContext taskContext;
  private File attemptDir;
  private JobCommitStage commitStage;
  /** Task side: the record the last task commit saved, for the commit protocol to carry (or null). */
  private CommittedTaskRecord committed;
  /** Driver side: the records the commit protocol handed over, by key. */
  private final Map<String, CommittedTaskRecord> handedOver = new HashMap<>();

  public StagingCommitter(Path outputPath, TaskAttemptContext context) throws IOException {
    this(outputPath, context, null);
  }

  public StagingCommitter(Path outputPath, JobContext context) throws IOException {
    this(outputPath, context, null);
  }

  protected StagingCommitter(Path outputPath, JobContext context, StagingOptions.Variant variant) throws IOException {
    super(outputPath, context);
    if (outputPath == null) {
      throw new IllegalArgumentException("the staging committer needs an output path");
    }
    this.outputPath = outputPath;
    this.conf = context.getConfiguration();
    this.jobId = JobId.resolve(conf, Objects.toString(context.getJobID(), null));
    this.layout = JobLayout.of(outputPath, jobId.id());
    this.options = StagingOptions.from(conf, layout.bucket(), variant);
    this.bufferDirs = new BufferDirs(options.bufferDirs(), options.bufferMinFree(), options.bufferMaxAgeMs());
    this.taskContext = context instanceof TaskAttemptContext ? (TaskAttemptContext) context : null;
    LOG.debug("Staging committer for {}: {}", layout, options);
  }

  public StagingOptions options() {
    return options;
  }

  /** The job's layout in the store. */
  public JobLayout layout() {
    return layout;
  }

  @Override
  public Path getOutputPath() {
    return outputPath;
  }

  /** The task attempt's local buffer directory ({@code file:}), created on first use. */
  @Override
  public synchronized Path getWorkPath() throws IOException {
    return new Path(attemptDir().toURI());
  }

  private synchronized File attemptDir() throws IOException {
    if (attemptDir == null && taskContext == null) {
      throw new IOException("no task attempt: the work path exists only in a task attempt's committer");
    }
    return attemptDir(taskContext);
  }

  private synchronized File attemptDir(TaskAttemptContext context) throws IOException {
    if (attemptDir == null) {
      attemptDir = bufferDirs.createAttemptDir(layout.jobId(), context.getTaskAttemptID().toString(),
          context.getTaskAttemptID().getTaskID().getId());
    }
    return attemptDir;
  }

  /** For the binding: the attempt directory of {@code context}, created if needed. */
  public Path getWorkPath(TaskAttemptContext context) throws IOException {
    return new Path(attemptDir(context).toURI());
  }

  ObjectStore openStore() throws IOException {
    return openStore(conf, null);
  }

  /**
   * The destination's store, opened with {@code c} and checked for the guarantees the committer relies on; its
   * requests name the job and, for a task attempt's work, {@code attempt} (null for the job's own).
   */
  ObjectStore openStore(Configuration c, TaskAttemptContext attempt) throws IOException {
    AuditContext who = AuditContext.of(AuditContext.STAGING).withJob(jobId.id())
        .withTaskAttempt(attempt == null ? null : attempt.getTaskAttemptID().toString());
    ObjectStore store = ObjectStores.open(layout.bucket(), c, who);
    try {
      // task records decide racing attempts (exclusive create); uploads of losers are aborted: docs/stores.md
      // the check, where one runs, writes in the destination's staging records area, which the job writes anyway
      store.requireGuarantees(StagingConstants.STORE_GUARANTEES, "the staging committer",
          ProbeSite.under(layout.probePrefix()));
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
    return store;
  }

  /**
   * Pins the job id into the job configuration and checks the store, on the driver, before any task writes: a store
   * that fails a guarantee fails the job now, and the verdict reaches the job's tasks in its configuration (written
   * there by the store module), so that executors do not check again (docs/stores.md).
   */
  @Override
  public void setupJob(JobContext context) throws IOException {
    // the tasks and job commit get this configuration: they use this id even where the engine sets its own only
    // after job setup (Spark 4.2)
    jobId.pinTo(context.getConfiguration());
    try (ObjectStore store = openStore(context.getConfiguration(), null)) {
      LOG.debug("Store of {} checked at job setup: {}", layout, store);
    }
    LOG.info("Staging committer ({}) set up for job {} writing to {}", options, layout.jobId(), outputPath);
  }

  @Override
  public void setupTask(TaskAttemptContext context) throws IOException {
    attemptDir(context);
  }

  /** Always true: every task attempt saves a record, even without files, so that job commit can count them. */
  @Override
  public boolean needsTaskCommit(TaskAttemptContext context) {
    return true;
  }

  @Override
  public void commitTask(TaskAttemptContext context) throws IOException {
    File dir = attemptDir(context);
    int index = context.getTaskAttemptID().getTaskID().getId();
    int count = SparkRuntime.jvm().taskPartitions().orElse(options.taskCount());
    try (ObjectStore store = openStore(conf, context)) {
      TaskCommitStage.Result r = new TaskCommitStage(store, layout, options).commit(dir, index, count,
          context.getTaskAttemptID().toString(), Hostnames.local());
      synchronized (this) {
        committed = r.committed();
      }
    } finally {
      deleteAttemptDir(dir);
    }
  }

  /**
   * The task's record as the last {@link #commitTask} saved it or, when another attempt had won, as that attempt saved
   * it; null when it cannot be carried (too large) or the winner's could not be read.
   */
  @Override
  public synchronized CommittedTaskRecord committedTaskRecord() {
    return committed;
  }

  /** A committed task's record for job commit, which then reads only the records it was not handed. */
  @Override
  public synchronized void handOver(CommittedTaskRecord record) {
    handedOver.put(record.key(), record);
  }

  @Override
  public void abortTask(TaskAttemptContext context) throws IOException {
    File dir;
    synchronized (this) {
      dir = attemptDir;
    }
    if (dir != null) {
      if (bufferDirs.isFull(dir)) {
        LOG.error("Task attempt {} aborted: {}", context.getTaskAttemptID(), bufferDirs.describe(dir));
      }
      deleteAttemptDir(dir);
    }
  }

  private void deleteAttemptDir(File dir) {
    if (!BufferDirs.deleteAttemptDir(dir)) {
      LOG.warn("Could not delete the local buffer directory {}", dir);
    }
  }

  @Override
  public void commitJob(JobContext context) throws IOException {
    Map<String, CommittedTaskRecord> records;
    synchronized (this) {
      records = Map.copyOf(handedOver);
    }
    try (ObjectStore store = openStore()) {
      JobCommitStage stage = new JobCommitStage(store, layout, options, records,
          new SuccessMarker(getClass().getName(), jobId, Map.of(
              "destination", String.valueOf(outputPath), "options", options.toString())));
      synchronized (this) {
        commitStage = stage;
      }
      stage.commit();
    }
  }

  @Override
  public void abortJob(JobContext context, JobStatus.State state) throws IOException {
    boolean completionStarted;
    synchronized (this) {
      completionStarted = commitStage != null && commitStage.completionStarted();
    }
    try (ObjectStore store = openStore()) {
      new JobAbortStage(store, layout, options).abort(completionStarted, 0);
    }
  }

  /** Nothing to clean: job commit and job abort remove the job's records. */
  @Override
  public void cleanupJob(JobContext context) {
  }

  @Override
  public boolean isCommitJobRepeatable(JobContext context) {
    return false;
  }

  @Override
  public boolean isRecoverySupported() {
    return false;
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "{" + layout + ", " + options + "}";
  }
}
