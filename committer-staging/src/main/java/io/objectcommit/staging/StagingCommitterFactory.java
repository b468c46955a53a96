package io.objectcommit.staging;

import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitterFactory;

/**
 * Binds the staging committer for every output format: set {@code
 * mapreduce.outputcommitter.factory.scheme.s3a} to this class (with Spark's {@code PathOutputCommitProtocol} from
 * spark-hadoop-cloud). The variant is {@link StagingConstants#COMMITTER}.
 */
public class StagingCommitterFactory extends PathOutputCommitterFactory {

  @Override
  public PathOutputCommitter createOutputCommitter(Path outputPath, TaskAttemptContext context) throws IOException {
    return new StagingCommitter(outputPath, context);
  }
}
