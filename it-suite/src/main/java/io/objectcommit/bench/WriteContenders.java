package io.objectcommit.bench;

import io.objectcommit.it.SparkSessions;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The write contenders in the order they run: Hadoop's FileOutputCommitter v1 and v2, the S3A {@code directory}
 * and {@code magic} committers through spark-hadoop-cloud, objectcommit's direct and staging committers (both
 * through {@code spark.sql.parquet.output.committer.class} and Spark's default commit protocol, named explicitly:
 * see {@link SparkSessions#DEFAULT_COMMIT_PROTOCOL}).
 */
public final class WriteContenders {

  private static final String PATH_OUTPUT_PROTOCOL = "org.apache.spark.internal.io.cloud.PathOutputCommitProtocol";
  private static final String BINDING_PARQUET = "org.apache.spark.internal.io.cloud.BindingParquetOutputCommitter";

  private WriteContenders() {
  }

  /**
   * All contenders.
   *
   * @param stagingBuffers local directory for the staging committer's task buffers
   */
  public static List<WriteContender> all(Path stagingBuffers) {
    return List.of(fileOutputCommitter(1), fileOutputCommitter(2), s3a("directory"), s3a("magic"), direct(),
        staging(stagingBuffers));
  }

  static WriteContender fileOutputCommitter(int algorithm) {
    return new WriteContender("FileOutputCommitter v" + algorithm,
        Map.of("spark.hadoop.mapreduce.fileoutputcommitter.algorithm.version", Integer.toString(algorithm),
            SparkSessions.COMMIT_PROTOCOL, SparkSessions.DEFAULT_COMMIT_PROTOCOL,
            SparkSessions.PARQUET_COMMITTER, SparkSessions.DEFAULT_PARQUET_COMMITTER));
  }

  static WriteContender s3a(String committer) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("spark.sql.sources.commitProtocolClass", PATH_OUTPUT_PROTOCOL);
    m.put("spark.sql.parquet.output.committer.class", BINDING_PARQUET);
    m.put("spark.hadoop.mapreduce.outputcommitter.factory.scheme.s3a",
        "org.apache.hadoop.fs.s3a.commit.S3ACommitterFactory");
    m.put("spark.hadoop.fs.s3a.committer.name", committer);
    m.put("spark.hadoop.fs.s3a.committer.magic.enabled", "true");
    m.put("spark.hadoop.fs.s3a.committer.staging.conflict-mode", "append");
    return new WriteContender("S3A " + committer, m);
  }

  static WriteContender direct() {
    return new WriteContender(Targets.DIRECT,
        Map.of("spark.sql.parquet.output.committer.class", "io.objectcommit.direct.DirectParquetOutputCommitter",
            SparkSessions.COMMIT_PROTOCOL, "io.objectcommit.direct.spark.DirectCommitProtocol"));
  }

  static WriteContender staging(Path buffers) {
    return new WriteContender(Targets.STAGING, Map.of(
        SparkSessions.COMMIT_PROTOCOL, "io.objectcommit.staging.spark.StagingCommitProtocol",
        "spark.hadoop.fs.objectcommit.staging.buffer.dirs", buffers.toAbsolutePath().toString(),
        "spark.hadoop.fs.objectcommit.staging.buffer.min-free", "1M"));
  }
}
