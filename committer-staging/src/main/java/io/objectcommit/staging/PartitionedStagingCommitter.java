package io.objectcommit.staging;

import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * The partitioned variant: the conflict mode applies to each partition directory written ({@code fail} if one of
 * them holds data, {@code replace} deletes only those partitions' old objects), never to the whole destination.
 */
public class PartitionedStagingCommitter extends StagingCommitter {

  public PartitionedStagingCommitter(Path outputPath, TaskAttemptContext context) throws IOException {
    super(outputPath, context, StagingOptions.Variant.PARTITIONED);
  }

  public PartitionedStagingCommitter(Path outputPath, JobContext context) throws IOException {
    super(outputPath, context, StagingOptions.Variant.PARTITIONED);
  }
}
