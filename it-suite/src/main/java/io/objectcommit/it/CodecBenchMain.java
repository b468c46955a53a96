package io.objectcommit.it;

import io.objectcommit.bench.codecs.CodecBenchResults;
import io.objectcommit.bench.codecs.CodecBenchSettings;
import io.objectcommit.bench.codecs.CodecBenchmark;
import io.objectcommit.testsupport.RunningEndpoint;
import io.objectcommit.testsupport.S3Endpoints;
import java.nio.file.Files;
import java.util.List;

/**
 * The compressed-text benchmark ({@code bin/run-codec-benchmark}, docs/benchmarks.md "Compressed text that Spark
 * splits"): starts the S3 endpoint like the main job, runs {@link CodecBenchmark} and prints its report. Exit code
 * 1 when a count failed or was wrong.
 */
final class CodecBenchMain {

  private CodecBenchMain() {
  }

  static int run(List<String> args) throws Exception {
    CodecBenchSettings settings = CodecBenchSettings.parse(args);
    try (RunningEndpoint running = S3Endpoints.shared()) {
      System.out.println("[codec-bench] S3 endpoint: " + running.endpoint());
      String machine = String.format("%d cores, Java %s, Spark %s, Hadoop %s, %s",
          Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
          org.apache.spark.package$.MODULE$.SPARK_VERSION(), org.apache.hadoop.util.VersionInfo.getVersion(),
          running.endpoint().isLocalStack() ? "LocalStack" : "external S3 endpoint");
      CodecBenchResults r = new CodecBenchmark(settings, running.endpoint(), machine).run();
      System.out.println();
      System.out.println(Files.readString(settings.outputDir().resolve("codec-bench.md")));
      return r.failures().isEmpty() ? 0 : 1;
    }
  }
}
