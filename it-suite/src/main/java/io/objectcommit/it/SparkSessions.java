package io.objectcommit.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.SparkSession;
import scala.Option;

/** Local Spark sessions bound to 127.0.0.1 and pointed at an S3 endpoint. */
public final class SparkSessions {

  /**
   * Spark's own default of {@code spark.sql.sources.commitProtocolClass}. A contender that binds a committer
   * through {@code spark.sql.parquet.output.committer.class} (or relies on FileOutputCommitter) names it: Spark 4.1
   * ({@code SparkContext.enableMagicCommitterIfNeeded}) sets {@code PathOutputCommitProtocol} with the S3A magic
   * committer whenever spark-hadoop-cloud is on the class path and the setting is missing, and that protocol never
   * calls the Parquet committer class. On Spark 3.5 and 4.0 naming it changes nothing.
   */
  public static final String DEFAULT_COMMIT_PROTOCOL =
      "org.apache.spark.sql.execution.datasources.SQLHadoopMapReduceCommitProtocol";

  /**
   * Spark's own default of {@code spark.sql.parquet.output.committer.class}, Parquet's committer (Hadoop's
   * FileOutputCommitter). Spark 4.1 sets {@code BindingParquetOutputCommitter} there too when the setting is missing
   * (it then commits through the S3A committer factory, magic), so the FileOutputCommitter contenders name it.
   */
  public static final String DEFAULT_PARQUET_COMMITTER = "org.apache.parquet.hadoop.ParquetOutputCommitter";

  /** The key of the Parquet committer class. */
  public static final String PARQUET_COMMITTER = "spark.sql.parquet.output.committer.class";

  /** The key of the commit protocol class. */
  public static final String COMMIT_PROTOCOL = "spark.sql.sources.commitProtocolClass";

  private SparkSessions() {
  }

  /**
   * A {@code local[2]} session whose Hadoop configuration carries {@code hadoopOptions} (the endpoint's
   * {@code fs.s3a.*} settings, plus whatever the caller adds).
   */
  public static SparkSession local(String appName, Map<String, String> hadoopOptions) {
    return local(appName, "local[2]", hadoopOptions, Map.of());
  }

  /**
   * A session on {@code master} (for example {@code local[2,2]}, which retries a failed task once) with the
   * Hadoop options and extra Spark settings given.
   */
  public static SparkSession local(String appName, String master, Map<String, String> hadoopOptions,
      Map<String, String> sparkConf) {
    closeCachedFileSystems();
    SparkSession.Builder b = SparkSession.builder()
        .appName(appName)
        .master(master)
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.adaptive.enabled", "false");
    hadoopOptions.forEach((k, v) -> b.config("spark.hadoop." + k, v));
    sparkConf.forEach(b::config);
    return b.getOrCreate();
  }

  /**
   * Closes the FileSystem instances Hadoop's cache holds when no session is running, so that the new session's
   * settings are the ones its file systems get, never an earlier test's. The cache stays on, as users have it: with
   * it off ({@code fs.s3a.impl.disable.cache}), every lookup of a path's file system inside Spark built a new S3A
   * instance with its own SDK clients and thread pools, which nothing closed (docs/development.md).
   */
  private static void closeCachedFileSystems() {
    if (running(SparkSession.getActiveSession()) || running(SparkSession.getDefaultSession())) {
      return; // getOrCreate returns that session: its file systems stay open
    }
    try {
      FileSystem.closeAll();
    } catch (IOException e) {
      throw new UncheckedIOException("closing the cached FileSystem instances of an earlier test", e);
    }
  }

  /** A session that has not been stopped (a stopped one may stay the thread's active session). */
  private static boolean running(Option<SparkSession> session) {
    return session.isDefined() && !session.get().sparkContext().isStopped();
  }
}
