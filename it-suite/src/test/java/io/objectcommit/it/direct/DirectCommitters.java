package io.objectcommit.it.direct;

import io.objectcommit.direct.DirectCommitterFactory;
import io.objectcommit.direct.DirectParquetOutputCommitter;
import io.objectcommit.direct.spark.DirectCommitProtocol;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.CommitterContender;
import java.util.LinkedHashMap;
import java.util.Map;

/** objectcommit's direct committers as {@link CommitterContender}s, with the settings a user gives spark-submit. */
public final class DirectCommitters {

  private DirectCommitters() {
  }

  /** {@code spark.sql.parquet.output.committer.class} with Spark's default commit protocol. */
  public static CommitterContender parquet() {
    return CommitterContender.of("objectcommit DirectParquetOutputCommitter",
        Map.of("spark.sql.parquet.output.committer.class", DirectParquetOutputCommitter.class.getName(),
            SparkSessions.COMMIT_PROTOCOL, SparkSessions.DEFAULT_COMMIT_PROTOCOL));
  }

  /**
   * {@code spark.sql.parquet.output.committer.class} with the direct committer's own commit protocol (Spark's
   * default one that also carries each task's record to the driver).
   */
  public static CommitterContender parquetWithItsProtocol() {
    return CommitterContender.of("objectcommit DirectParquetOutputCommitter (DirectCommitProtocol)",
        Map.of("spark.sql.parquet.output.committer.class", DirectParquetOutputCommitter.class.getName(),
            SparkSessions.COMMIT_PROTOCOL, DirectCommitProtocol.class.getName()));
  }

  /**
   * Any format through the direct committer's own commit protocol: Parquet through its Parquet committer, every
   * other format through our factory bound to s3a (Hadoop's FileOutputFormat asks the factory); no
   * spark-hadoop-cloud.
   */
  public static CommitterContender everyFormatWithItsProtocol() {
    Map<String, String> m = new LinkedHashMap<>(parquetWithItsProtocol().sparkConf());
    m.put("spark.hadoop.mapreduce.outputcommitter.factory.scheme.s3a", DirectCommitterFactory.class.getName());
    return CommitterContender.of("objectcommit DirectCommitterFactory (DirectCommitProtocol)", m);
  }

  /** Any format: spark-hadoop-cloud's PathOutputCommitProtocol with our factory bound to s3a. */
  public static CommitterContender pathOutput() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("spark.sql.sources.commitProtocolClass", "org.apache.spark.internal.io.cloud.PathOutputCommitProtocol");
    m.put("spark.sql.parquet.output.committer.class",
        "org.apache.spark.internal.io.cloud.BindingParquetOutputCommitter");
    m.put("spark.hadoop.mapreduce.outputcommitter.factory.scheme.s3a", DirectCommitterFactory.class.getName());
    return CommitterContender.of("objectcommit DirectCommitterFactory (PathOutputCommitProtocol)", m);
  }

}
