package io.objectcommit.it;

import io.objectcommit.bench.ReadBenchResults;
import io.objectcommit.bench.ReadBenchSettings;
import io.objectcommit.bench.ReadCacheBenchmark;
import io.objectcommit.testsupport.RunningEndpoint;
import io.objectcommit.testsupport.S3Endpoints;
import java.nio.file.Files;
import java.util.List;

/**
 * The read-cache benchmark ({@code bin/run-readcache-benchmark}; docs/benchmarks.md, "Repeated reads by separate
 * applications"): starts the S3 endpoint like the main job, runs {@link ReadCacheBenchmark} and prints its report.
 * Exit code 1 when an application failed or read wrong sums.
 */
final class ReadCacheMain {

  private ReadCacheMain() {
  }

  static int run(List<String> args) throws Exception {
    ReadBenchSettings settings = ReadBenchSettings.parse(args);
    say("read-cache benchmark: " + settings + "; Spark " + BenchMachine.sparkVersion() + ", Hadoop "
        + BenchMachine.hadoopVersion());
    try (RunningEndpoint running = S3Endpoints.shared()) {
      say("S3 endpoint: " + running.endpoint());
      String machine = BenchMachine.describe(running);
      ReadBenchResults r = new ReadCacheBenchmark(settings, running.endpoint(), machine).run();
      System.out.println();
      System.out.println(Files.readString(settings.outputDir().toAbsolutePath().resolve("readcache.md")));
      say(r.failures().isEmpty() ? "done" : "FAILED: " + r.failures());
      return r.failures().isEmpty() ? 0 : 1;
    }
  }

  private static void say(String line) {
    System.out.println("[readcache] " + line);
    System.out.flush();
  }
}
