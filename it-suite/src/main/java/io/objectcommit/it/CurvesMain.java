package io.objectcommit.it;

import io.objectcommit.bench.CurveResults;
import io.objectcommit.bench.CurveRun;
import io.objectcommit.bench.CurveSettings;
import io.objectcommit.testsupport.RunningEndpoint;
import io.objectcommit.testsupport.S3Endpoints;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;

/**
 * The cost curves ({@code bin/run-cost-curves}; docs/benchmarks.md, "Cost curves"): starts the S3 endpoint like
 * the main job, runs {@link CurveRun} and prints its report. Exit code 1 when a contender failed.
 */
final class CurvesMain {

  private CurvesMain() {
  }

  static int run(List<String> args) throws Exception {
    CurveSettings settings = CurveSettings.parse(args);
    long t0 = System.nanoTime();
    say("cost curves: " + settings.describe() + "; Spark " + BenchMachine.sparkVersion() + ", Hadoop "
        + BenchMachine.hadoopVersion());
    try (RunningEndpoint running = S3Endpoints.shared()) {
      say("S3 endpoint: " + running.endpoint());
      String machine = BenchMachine.describe(running);
      CurveResults r = new CurveRun(settings, running.endpoint(), machine).run();
      System.out.println();
      System.out.println(Files.readString(settings.outputDir().toAbsolutePath().resolve("curves.md")));
      say(String.format(Locale.ROOT, "done in %.0f s", (System.nanoTime() - t0) / 1e9)
          + (r.failures().isEmpty() ? "" : "; FAILED: " + r.failures()));
      return r.failures().isEmpty() ? 0 : 1;
    }
  }

  private static void say(String line) {
    System.out.println("[curves] " + line);
    System.out.flush();
  }
}
