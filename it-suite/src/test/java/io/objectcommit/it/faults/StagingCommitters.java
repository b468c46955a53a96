package io.objectcommit.it.faults;

import io.objectcommit.it.SparkSessions;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The staging committer (committer-staging) through each of its bindings, as {@link CommitterContender}s. */
public final class StagingCommitters {

  private StagingCommitters() {
  }

  /**
   * Local buffer directories of test tasks: under the module's target directory, one per test JVM, so that a test
   * that counts the files left there sees only its own JVM's (Failsafe runs several test JVMs at once).
   */
  public static String bufferDir() {
    return Path.of("target", "staging-buffers", "jvm-" + ProcessHandle.current().pid()).toAbsolutePath()
        .toString();
  }

  /** A contender with the test tasks' buffer directories added. */
  private static CommitterContender withBuffers(String name, Map<String, String> conf) {
    Map<String, String> m = new LinkedHashMap<>(conf);
    m.put("spark.hadoop.fs.objectcommit.staging.buffer.dirs", bufferDir());
    m.put("spark.hadoop.fs.objectcommit.staging.buffer.min-free", "1M");
    return CommitterContender.of(name, m);
  }

  /** Through {@code spark.sql.parquet.output.committer.class} with Spark's default commit protocol. */
  public static CommitterContender parquetBinding() {
    return withBuffers("staging (Parquet binding)", Map.of("spark.sql.parquet.output.committer.class",
        "io.objectcommit.staging.StagingParquetOutputCommitter",
        SparkSessions.COMMIT_PROTOCOL, SparkSessions.DEFAULT_COMMIT_PROTOCOL));
  }

  /** Through our commit protocol: every format, Overwrite deferred to job commit, dynamic partition overwrite. */
  public static CommitterContender protocol() {
    return withBuffers("staging (StagingCommitProtocol)", Map.of("spark.sql.sources.commitProtocolClass",
        "io.objectcommit.staging.spark.StagingCommitProtocol"));
  }

  /** Through the PathOutputCommitterFactory and spark-hadoop-cloud's PathOutputCommitProtocol: every format. */
  public static CommitterContender factory() {
    return withBuffers("staging (PathOutputCommitterFactory)", Map.of(
        "spark.sql.sources.commitProtocolClass", "org.apache.spark.internal.io.cloud.PathOutputCommitProtocol",
        "spark.sql.parquet.output.committer.class", "org.apache.spark.internal.io.cloud.BindingParquetOutputCommitter",
        "spark.hadoop.mapreduce.outputcommitter.factory.scheme.s3a", "io.objectcommit.staging.StagingCommitterFactory"));
  }
}
