package io.objectcommit.it.faults;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The staging committer (committer-staging) through each of its bindings, as {@link CommitterContender}s. */
public final class StagingCommitters {

  private StagingCommitters() {
  }

  /** Local buffer directories of test tasks: under the module's target directory. */
  public static String bufferDir() {
    return Path.of("target", "staging-buffers").toAbsolutePath().toString();
  }

  private static CommitterContender of(String name, Map<String, String> conf) {
    Map<String, String> m = new LinkedHashMap<>(conf);
    m.put("spark.hadoop.fs.objectcommit.staging.buffer.dirs", bufferDir());
    m.put("spark.hadoop.fs.objectcommit.staging.buffer.min-free", "1M");
    Map<String, String> all = Map.copyOf(m);
    return new CommitterContender() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Map<String, String> sparkConf() {
        return all;
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }

  /** Through {@code spark.sql.parquet.output.committer.class} with Spark's default commit protocol. */
  public static CommitterContender parquetBinding() {
    return of("staging (Parquet binding)", Map.of("spark.sql.parquet.output.committer.class",
        "io.objectcommit.staging.StagingParquetOutputCommitter"));
  }

  /** Through our commit protocol: every format, Overwrite deferred to job commit, dynamic partition overwrite. */
  public static CommitterContender protocol() {
    return of("staging (StagingCommitProtocol)", Map.of("spark.sql.sources.commitProtocolClass",
        "io.objectcommit.staging.spark.StagingCommitProtocol"));
  }

  /** Through the PathOutputCommitterFactory and spark-hadoop-cloud's PathOutputCommitProtocol: every format. */
  public static CommitterContender factory() {
    return of("staging (PathOutputCommitterFactory)", Map.of(
        "spark.sql.sources.commitProtocolClass", "org.apache.spark.internal.io.cloud.PathOutputCommitProtocol",
        "spark.sql.parquet.output.committer.class", "org.apache.spark.internal.io.cloud.BindingParquetOutputCommitter",
        "spark.hadoop.mapreduce.outputcommitter.factory.scheme.s3a", "io.objectcommit.staging.StagingCommitterFactory"));
  }
}
