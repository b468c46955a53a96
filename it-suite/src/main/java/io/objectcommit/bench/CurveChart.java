package io.objectcommit.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The cost curves' chart: S3 requests and seconds against size, log-log, a line per contender: the spread writes
 * against files written, the checkpoints (per micro-batch) against shuffle partitions.
 */
final class CurveChart {

  private CurveChart() {
  }

  static String render(CurveResults r) {
    List<SvgLineChart.Panel> panels = new ArrayList<>();
    List<CurveWrite> spread = r.writesOf(CurveWrite.SPREAD);
    if (!spread.isEmpty()) {
      panels.add(new SvgLineChart.Panel("Writes of small files: S3 requests", "files written",
          writeSeries(r, spread, w -> w.result().requests().total())));
      panels.add(new SvgLineChart.Panel("Writes of small files: job seconds", "files written",
          writeSeries(r, spread, w -> w.result().jobMs() / 1000.0)));
    }
    if (!r.checkpoints().isEmpty()) {
      panels.add(new SvgLineChart.Panel("Checkpoints: S3 requests per micro-batch (local-path backends send none)",
          "shuffle partitions", checkpointSeries(r, c -> c.result().requestsPerBatch())));
      panels.add(new SvgLineChart.Panel("Checkpoints: seconds per micro-batch", "shuffle partitions",
          checkpointSeries(r, c -> c.result().meanBatchMs() / 1000.0)));
    }
    return SvgLineChart.render(String.format(Locale.ROOT, "objectcommit cost curves, %s (%s, %d ms per request)",
        r.date(), r.machine(), r.settings().latencyMs()), panels);
  }

  private static List<SvgLineChart.Series> writeSeries(CurveResults r, List<CurveWrite> ws,
      ToDoubleFunction<CurveWrite> y) {
    return r.writeContenders().stream().map(name -> {
      List<CurveWrite> points = ws.stream().filter(w -> w.contender().equals(name) && w.measured()).toList();
      return new SvgLineChart.Series(name, points.stream().map(w -> (double) w.shape().files()).toList(),
          points.stream().map(y::applyAsDouble).toList());
    }).toList();
  }

  private static List<SvgLineChart.Series> checkpointSeries(CurveResults r, ToDoubleFunction<CurveCheckpoint> y) {
    return r.checkpointContenders().stream().map(name -> {
      List<CurveCheckpoint> points = r.checkpoints().stream().filter(c -> c.contender().equals(name)
          && c.measured()).toList();
      return new SvgLineChart.Series(name, points.stream().map(c -> (double) c.partitions()).toList(),
          points.stream().map(y::applyAsDouble).toList());
    }).toList();
  }
}
