package io.objectcommit.it;

import io.objectcommit.testsupport.RunningEndpoint;
import java.util.Locale;

/** Where a benchmark ran, as its report says it: cores, the S3 endpoint, Spark's and Hadoop's versions. */
final class BenchMachine {

  private BenchMachine() {
  }

  static String sparkVersion() {
    return org.apache.spark.package$.MODULE$.SPARK_VERSION();
  }

  static String hadoopVersion() {
    return org.apache.hadoop.util.VersionInfo.getVersion();
  }

  /** For example "2 cores, LocalStack host mode, Spark 3.5.8, Hadoop 3.3.4". */
  static String describe(RunningEndpoint running) {
    return String.format(Locale.ROOT, "%d cores, %s, Spark %s, Hadoop %s", Runtime.getRuntime().availableProcessors(),
        running.endpoint().isLocalStack() ? "LocalStack " + running.endpoint().kind().name().toLowerCase(Locale.ROOT)
            + " mode" : "external S3 endpoint", sparkVersion(), hadoopVersion());
  }
}
