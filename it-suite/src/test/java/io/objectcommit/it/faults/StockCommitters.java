package io.objectcommit.it.faults;

import io.objectcommit.it.SparkSessions;
import java.util.LinkedHashMap;
import java.util.Map;

/** The committers a Spark 3.5 / Hadoop 3.3.4 user has without us, as {@link CommitterContender}s. */
public final class StockCommitters {

  private StockCommitters() {
  }


  /** Hadoop's FileOutputCommitter, algorithm 1: task commit renames the attempt directory, job commit merges. */
  public static CommitterContender fileOutputCommitterV1() {
    return CommitterContender.of("FileOutputCommitter v1", Map.of("spark.hadoop.mapreduce.fileoutputcommitter.algorithm.version", "1",
        SparkSessions.COMMIT_PROTOCOL, SparkSessions.DEFAULT_COMMIT_PROTOCOL,
        SparkSessions.PARQUET_COMMITTER, SparkSessions.DEFAULT_PARQUET_COMMITTER));
  }

  /** Hadoop's FileOutputCommitter, algorithm 2: task commit merges into the destination. */
  public static CommitterContender fileOutputCommitterV2() {
    return CommitterContender.of("FileOutputCommitter v2", Map.of("spark.hadoop.mapreduce.fileoutputcommitter.algorithm.version", "2",
        SparkSessions.COMMIT_PROTOCOL, SparkSessions.DEFAULT_COMMIT_PROTOCOL,
        SparkSessions.PARQUET_COMMITTER, SparkSessions.DEFAULT_PARQUET_COMMITTER));
  }

  /** The S3A staging "directory" committer through spark-hadoop-cloud's binding. */
  public static CommitterContender s3aDirectory() {
    return CommitterContender.of("S3A directory", s3a("directory"));
  }

  /** The S3A "magic" committer through spark-hadoop-cloud's binding. */
  public static CommitterContender s3aMagic() {
    return CommitterContender.of("S3A magic", s3a("magic"));
  }

  /** Direct writing in the style of Spark 1.6's DirectParquetOutputCommitter ({@link DirectTestCommitter}). */
  public static CommitterContender direct() {
    return CommitterContender.of("direct (DirectParquetOutputCommitter style)",
        Map.of("spark.sql.parquet.output.committer.class", DirectTestCommitter.class.getName(),
            SparkSessions.COMMIT_PROTOCOL, SparkSessions.DEFAULT_COMMIT_PROTOCOL));
  }

  private static Map<String, String> s3a(String committer) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("spark.sql.sources.commitProtocolClass", "org.apache.spark.internal.io.cloud.PathOutputCommitProtocol");
    m.put("spark.sql.parquet.output.committer.class",
        "org.apache.spark.internal.io.cloud.BindingParquetOutputCommitter");
    m.put("spark.hadoop.mapreduce.outputcommitter.factory.scheme.s3a",
        "org.apache.hadoop.fs.s3a.commit.S3ACommitterFactory");
    m.put("spark.hadoop.fs.s3a.committer.name", committer);
    m.put("spark.hadoop.fs.s3a.committer.magic.enabled", "true");
    m.put("spark.hadoop.fs.s3a.committer.staging.conflict-mode", "append");
    return Map.copyOf(m);
  }
}
