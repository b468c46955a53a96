package io.objectcommit.direct;

import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitterFactory;

/**
 * Creates {@link DirectPathOutputCommitter}s. Bind it to the S3 scheme with
 * {@code mapreduce.outputcommitter.factory.scheme.s3a=io.objectcommit.direct.DirectCommitterFactory} (in Spark:
 * {@code spark.hadoop.} before it, plus
 * {@code spark.sql.sources.commitProtocolClass=org.apache.spark.internal.io.cloud.PathOutputCommitProtocol} from
 * spark-hadoop-cloud).
 */
public class DirectCommitterFactory extends PathOutputCommitterFactory {

  @Override
  public PathOutputCommitter createOutputCommitter(Path outputPath, TaskAttemptContext context) throws IOException {
    return new DirectPathOutputCommitter(outputPath, context);
  }
}
