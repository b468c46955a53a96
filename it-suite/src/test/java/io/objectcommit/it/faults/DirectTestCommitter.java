package io.objectcommit.it.faults;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.parquet.hadoop.ParquetOutputCommitter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A test-only committer that writes like Spark 1.6's {@code DirectParquetOutputCommitter} (removed in Spark 2.0
 * for the reasons the tests show): the work path is the destination, so tasks write their files straight into
 * the table; task commit and abort do nothing, job commit writes {@code _SUCCESS}, job abort cannot know what to
 * remove and removes nothing.
 */
public class DirectTestCommitter extends ParquetOutputCommitter {

  private static final Logger LOG = LoggerFactory.getLogger(DirectTestCommitter.class);
  private final Path outputPath;

  public DirectTestCommitter(Path outputPath, TaskAttemptContext context) throws IOException {
    super(outputPath, context);
    this.outputPath = outputPath;
  }

  @Override
  public Path getWorkPath() {
    return outputPath;
  }

  @Override
  public void setupJob(JobContext jobContext) {
    // Nothing to prepare: tasks write to the destination.
  }

  @Override
  public void setupTask(TaskAttemptContext taskContext) {
    // Nothing to prepare.
  }

  @Override
  public boolean needsTaskCommit(TaskAttemptContext taskContext) {
    return false;
  }

  @Override
  public void commitTask(TaskAttemptContext taskContext) {
    // The files are already in place.
  }

  @Override
  public void abortTask(TaskAttemptContext taskContext) {
    LOG.info("direct committer: abortTask {} leaves whatever the attempt wrote", taskContext.getTaskAttemptID());
  }

  @Override
  public void commitJob(JobContext jobContext) throws IOException {
    FileSystem fs = outputPath.getFileSystem(jobContext.getConfiguration());
    fs.create(new Path(outputPath, "_SUCCESS"), true).close();
  }

  @Override
  public void abortJob(JobContext jobContext, JobStatus.State state) {
    LOG.info("direct committer: abortJob ({}) cannot tell the job's files from the table's", state);
  }
}
