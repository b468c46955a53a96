package io.objectcommit.staging.spark;

import io.objectcommit.commit.spark.TaskRecordCommitMessage;
import io.objectcommit.staging.StagingConstants;
import io.objectcommit.staging.StagingParquetOutputCommitter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.spark.internal.io.FileCommitProtocol;
import org.apache.spark.internal.io.HadoopMapReduceCommitProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spark's commit protocol with the staging committer for every format ({@code
 * spark.sql.sources.commitProtocolClass}). Beyond the plain binding it gives Spark's overwrite modes their
 * meaning without deleting anything before the job has run:
 * <ul>
 *   <li>{@code SaveMode.Overwrite} (static): Spark asks the protocol to delete the destination, or the static
 *       partitions, before the job starts ({@code deleteWithJob}); here the delete is deferred to job commit, once
 *       every new file is uploaded. A job that fails leaves the old data in place.</li>
 *   <li>Dynamic partition overwrite ({@code spark.sql.sources.partitionOverwriteMode=dynamic}): job commit deletes
 *       the old objects of exactly the partitions the job wrote, then completes the uploads. No staging
 *       directory, no rename (Spark's own implementation copies every file through a rename).</li>
 * </ul>
 * Custom partition locations outside the table are still handled by Spark (through a rename). Each committed
 * task's record rides to the driver in Spark's task commit message ({@code TaskRecordCommitMessage}), so that job
 * commit lists the job's records once instead of reading one per task.
 */
public class StagingCommitProtocol extends HadoopMapReduceCommitProtocol {

  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(StagingCommitProtocol.class);

  private final String destination;
  private final boolean dynamic;
  /** Driver only: paths Spark asked to delete, relative to the destination. */
  private transient List<String> replacePaths;
  /** The committer of this protocol's job (driver) or task attempt (executor), once set up; else null. */
  private transient volatile OutputCommitter committer;

  public StagingCommitProtocol(String jobId, String path, boolean dynamicPartitionOverwrite) {
    super(jobId, path, false); // never Spark's staging directory and renames
    this.destination = path;
    this.dynamic = dynamicPartitionOverwrite;
  }

  public StagingCommitProtocol(String jobId, String path) {
    this(jobId, path, false);
  }

  private synchronized List<String> replacePaths() {
    if (replacePaths == null) {
      replacePaths = new ArrayList<>();
    }
    return replacePaths;
  }

  @Override
  public OutputCommitter setupCommitter(TaskAttemptContext context) {
    if (dynamic) {
      context.getConfiguration().setBoolean(StagingConstants.DYNAMIC_PARTITION_OVERWRITE, true);
    }
    List<String> replace = replacePaths();
    if (!replace.isEmpty()) {
      context.getConfiguration().set(StagingConstants.REPLACE_PATHS, String.join(",", replace));
    }
    try {
      OutputCommitter c = new StagingParquetOutputCommitter(new Path(destination), context);
      committer = c;
      return c;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Spark's task commit, whose message also carries the task record the attempt saved. */
  @Override
  public FileCommitProtocol.TaskCommitMessage commitTask(TaskAttemptContext taskContext) {
    return TaskRecordCommitMessage.carry(super.commitTask(taskContext), committer);
  }

  /** On the driver, as each task commits: its record goes to the job's committer, for job commit. */
  @Override
  public void onTaskCommit(FileCommitProtocol.TaskCommitMessage taskCommit) {
    super.onTaskCommit(taskCommit);
    TaskRecordCommitMessage.deliver(taskCommit, committer);
  }

  /**
   * Spark's {@code SaveMode.Overwrite} deletes the destination (or static partitions) before the job runs; under
   * the destination this only notes the path, and job commit deletes its old objects once the new files are ready.
   */
  @Override
  public boolean deleteWithJob(FileSystem fs, Path path, boolean recursive) {
    Path dest = fs.makeQualified(new Path(destination));
    Path p = fs.makeQualified(path);
    String d = dest.toUri().getPath();
    String q = p.toUri().getPath();
    if (recursive && Objects.equals(dest.toUri().getAuthority(), p.toUri().getAuthority())
        && (q.equals(d) || q.startsWith(d.endsWith("/") ? d : d + "/"))) {
      String relative = q.length() <= d.length() ? "" : q.substring(d.length()).replaceAll("^/+", "");
      LOG.info("Deleting {} is deferred to job commit", path);
      replacePaths().add(relative);
      return true;
    }
    return super.deleteWithJob(fs, path, recursive);
  }
}
