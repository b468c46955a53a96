package io.objectcommit.it;

import io.objectcommit.bench.SoakResult;
import io.objectcommit.bench.SoakRun;
import io.objectcommit.bench.SoakSettings;
import io.objectcommit.testsupport.RunningEndpoint;
import io.objectcommit.testsupport.S3Endpoints;
import java.util.ArrayList;
import java.util.List;

/**
 * The long soak run ({@code bin/soak}, docs/reliability.md "Soak run"): starts the S3 endpoint like the main job,
 * runs {@link SoakRun} once per state store and prints each run's first-window against last-window table. Exit
 * code 1 when an asserted property was missed or a run failed.
 */
final class SoakMain {

  private SoakMain() {
  }

  static int run(List<String> args) throws Exception {
    SoakSettings settings = SoakSettings.parse(args);
    say("soak: " + settings + "; Spark " + org.apache.spark.package$.MODULE$.SPARK_VERSION());
    List<String> failed = new ArrayList<>();
    StringBuilder tables = new StringBuilder();
    try (RunningEndpoint running = S3Endpoints.shared()) {
      say("S3 endpoint: " + running.endpoint());
      for (String store : settings.stateStores()) {
        long t0 = System.nanoTime();
        try {
          SoakResult r = new SoakRun(running.endpoint(), settings.with(settings.batches(), store)).run(store);
          String table = r.table();
          tables.append(table).append('\n');
          System.out.println();
          System.out.println(table);
          r.missed().forEach(k -> failed.add(store + ": " + k.name()));
        } catch (Exception | Error e) {
          failed.add(store + ": " + e);
          e.printStackTrace(System.out);
        }
        say(String.format("%s done in %.0f s", store, (System.nanoTime() - t0) / 1e9));
      }
    }
    System.out.println();
    System.out.println(tables);
    say(failed.isEmpty() ? "every asserted property met" : "MISSED: " + failed);
    return failed.isEmpty() ? 0 : 1;
  }

  private static void say(String line) {
    System.out.println("[soak] " + line);
    System.out.flush();
  }
}
