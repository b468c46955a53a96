package io.objectcommit.direct.impl;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.commit.TaskRecordHandOver;
import io.objectcommit.direct.impl.DirectCommitEngine.Mode;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;

/**
 * The committer protocol both direct committers share: each call goes to the {@link DirectCommitEngine}, or, when
 * the speculation guard chose the classic fallback for the job, to the committer's classic counterpart (Hadoop's
 * {@code FileOutputCommitter}, Parquet's {@code ParquetOutputCommitter}), created on first use.
 */
public final class DirectOrClassic {

  /** Creates the classic committer of the fallback. */
  @FunctionalInterface
  public interface ClassicFactory {
    PathOutputCommitter create(Path outputPath, TaskAttemptContext context) throws IOException;
  }

  private final Path outputPath;
  private final TaskAttemptContext context;
  private final DirectCommitEngine engine;
  private final ClassicFactory classicFactory;
  private final DirectCommitEngine.BeforeSuccess beforeSuccess;
  private Mode mode;
  private PathOutputCommitter classic;
  /** Task side: the record this attempt committed. */
  private CommittedTaskRecord committed;
  /** Driver side: records handed over by the commit protocol, by key, until job commit. */
  private final Map<String, CommittedTaskRecord> handedOver = new LinkedHashMap<>();

  /**
   * @param committerName the committer's name, in {@code _SUCCESS}
   * @param beforeSuccess the committer's own step of job commit (null: none)
   */
  public DirectOrClassic(Path outputPath, TaskAttemptContext context, String committerName,
      ClassicFactory classicFactory, DirectCommitEngine.BeforeSuccess beforeSuccess) {
    this.outputPath = outputPath;
    this.context = context;
    this.engine = new DirectCommitEngine(outputPath, context.getConfiguration(), committerName);
    this.classicFactory = classicFactory;
    this.beforeSuccess = beforeSuccess;
  }

  public DirectCommitEngine engine() {
    return engine;
  }

  /** The job's mode once known, else null. */
  public synchronized Mode mode() {
    return mode;
  }

  /** The classic committer when this job falls back to it, else null. */
  private synchronized PathOutputCommitter classic(Configuration conf) throws IOException {
    if (mode == null) {
      mode = engine.mode(conf);
    }
    if (mode != Mode.CLASSIC) {
      return null;
    }
    if (classic == null) {
      classic = classicFactory.create(outputPath, context);
    }
    return classic;
  }

  public Path getWorkPath() throws IOException {
    PathOutputCommitter c = classic(context.getConfiguration());
    return c != null ? c.getWorkPath() : engine.workPath(context);
  }

  public void setupJob(JobContext job) throws IOException {
    Mode decided = engine.setupJob(job);
    synchronized (this) {
      mode = decided;
    }
    PathOutputCommitter c = classic(job.getConfiguration());
    if (c != null) {
      c.setupJob(job);
    }
  }

  public void setupTask(TaskAttemptContext task) throws IOException {
    PathOutputCommitter c = classic(task.getConfiguration());
    if (c != null) {
      c.setupTask(task);
    } else {
      engine.setupTask(task);
    }
  }

  /** Always true in direct mode: a task's commit records it for job commit even when it wrote nothing. */
  public boolean needsTaskCommit(TaskAttemptContext task) throws IOException {
    PathOutputCommitter c = classic(task.getConfiguration());
    return c == null || c.needsTaskCommit(task);
  }

  public void commitTask(TaskAttemptContext task) throws IOException {
    PathOutputCommitter c = classic(task.getConfiguration());
    if (c != null) {
      c.commitTask(task);
    } else {
      CommittedTaskRecord r = engine.commitTask(task);
      synchronized (this) {
        committed = r;
      }
    }
  }

  /** The task record the last {@link #commitTask} wrote, or null (see {@link TaskRecordHandOver}). */
  public synchronized CommittedTaskRecord committedTaskRecord() {
    return committed;
  }

  /** A committed task's record for job commit (see {@link TaskRecordHandOver}). */
  public synchronized void handOver(CommittedTaskRecord record) {
    handedOver.put(record.key(), record);
  }

  public void abortTask(TaskAttemptContext task) throws IOException {
    PathOutputCommitter c = classic(task.getConfiguration());
    if (c != null) {
      c.abortTask(task);
    } else {
      engine.abortTask(task);
    }
  }

  public void commitJob(JobContext job) throws IOException {
    PathOutputCommitter c = classic(job.getConfiguration());
    if (c != null) {
      c.commitJob(job);
    } else {
      Map<String, CommittedTaskRecord> records;
      synchronized (this) {
        records = new LinkedHashMap<>(handedOver);
        handedOver.clear();
      }
      engine.commitJob(job, beforeSuccess, records);
    }
  }

  public void abortJob(JobContext job, JobStatus.State state) throws IOException {
    PathOutputCommitter c = classic(job.getConfiguration());
    if (c != null) {
      c.abortJob(job, state);
    } else {
      engine.abortJob(job);
    }
  }

  /** Nothing in direct mode: job commit and abort remove the bookkeeping. */
  public void cleanupJob(JobContext job) throws IOException {
    PathOutputCommitter c = classic(job.getConfiguration());
    if (c != null) {
      c.cleanupJob(job);
    }
  }

  @Override
  public String toString() {
    return outputPath + ", mode=" + mode();
  }
}
