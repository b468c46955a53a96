package io.objectcommit.bench;

import java.util.ArrayList;
import java.util.List;

/** The panels of the benchmark's chart: write job and commit time and requests per shape, checkpoint per partitions. */
final class BenchCharts {

  private BenchCharts() {
  }

  static String render(BenchResults r) {
    List<SvgChart.Panel> panels = new ArrayList<>();
    for (String shape : r.shapes()) {
      List<WriteResult> ws = r.writesOf(shape);
      panels.add(new SvgChart.Panel("Write " + shape + ": job time (s)", "%.1f s",
          ws.stream().map(w -> new SvgChart.Bar(w.contender(), w.jobMs() / 1000.0, ours(w.contender()))).toList()));
      panels.add(new SvgChart.Panel("Write " + shape + ": job commit time (s)", "%.2f s",
          ws.stream().map(w -> new SvgChart.Bar(w.contender(), w.commitMs() / 1000.0, ours(w.contender())))
              .toList()));
      panels.add(new SvgChart.Panel("Write " + shape + ": S3 requests", "%,.0f",
          ws.stream().map(w -> new SvgChart.Bar(w.contender(), w.requests().total(), ours(w.contender()))).toList()));
    }
    for (int p : r.partitionCounts()) {
      for (StateStoreChoice store : r.stateStores()) {
        List<CheckpointResult> cs = r.checkpointsAt(p, store);
        if (cs.isEmpty()) {
          continue;
        }
        String what = "Checkpoint, " + p + " shuffle partitions"
            + (store == StateStoreChoice.DEFAULT ? "" : ", " + store.label());
        panels.add(new SvgChart.Panel(what + ": time per micro-batch (s)", "%.2f s",
            cs.stream().map(c -> new SvgChart.Bar(c.contender(), c.meanBatchMs() / 1000.0, ours(c.contender())))
                .toList()));
        panels.add(new SvgChart.Panel(what + ": S3 requests per micro-batch", "%,.0f",
            cs.stream().map(c -> new SvgChart.Bar(c.contender(), c.requestsPerBatch(), ours(c.contender())))
                .toList()));
      }
    }
    String title = String.format("objectcommit benchmark, %s (%s, %d ms per request)", r.date(), r.machine(),
        r.settings().latencyMs());
    return SvgChart.render(title, panels);
  }

  static boolean ours(String contender) {
    return contender.startsWith("objectcommit");
  }
}
