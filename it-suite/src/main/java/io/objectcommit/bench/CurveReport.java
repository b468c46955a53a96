package io.objectcommit.bench;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The cost curves' Markdown report: a table per write curve, one for the checkpoints, then what was skipped. */
final class CurveReport {

  private CurveReport() {
  }

  static String render(CurveResults r) {
    CurveSettings s = r.settings();
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "Cost curves, run of %s: %s; Spark %s, %d ms added to every S3 request;"
        + " budget %.0f s per size (docs/benchmarks.md, \"Cost curves\": a size runs when the contender's last"
        + " measured size projects it within the budget).%n%n", r.date(), r.machine(), s.master(), s.latencyMs(),
        s.budgetSeconds()));
    for (String curve : List.of(CurveWrite.SPREAD, CurveWrite.ONE_TASK)) {
      List<CurveWrite> ws = r.writesOf(curve);
      if (!ws.isEmpty()) {
        sb.append(curve.equals(CurveWrite.SPREAD)
            ? String.format(Locale.ROOT, "Writes of small files (%d files of %d rows per task):%n%n",
                CurveSettings.FILES_PER_TASK, CurveSettings.ROWS_PER_SMALL_FILE)
            : String.format(Locale.ROOT, "One task writing small files (%d rows each):%n%n",
                CurveSettings.ROWS_PER_SMALL_FILE));
        sb.append(writeTable(ws)).append('\n');
      }
    }
    if (!r.checkpoints().isEmpty()) {
      sb.append(String.format(Locale.ROOT, "Checkpoints (Spark's default state store; mean of micro-batches 1-%d;"
          + " requests per micro-batch):%n%n", s.batches()));
      sb.append(checkpointTable(r.checkpoints())).append('\n');
    }
    List<String> failures = r.failures();
    if (!failures.isEmpty()) {
      sb.append("Failed (no result):\n\n");
      failures.forEach(f -> sb.append("- ").append(f).append('\n'));
      sb.append('\n');
    }
    return sb.toString();
  }

  static String writeTable(List<CurveWrite> ws) {
    StringBuilder sb = new StringBuilder();
    sb.append("| committer | files | tasks | job s | commit s | requests | per file | heap before commit MB"
        + " | heap peak in commit MB | requests by operation |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (CurveWrite w : ws) {
      sb.append(String.format(Locale.ROOT, "| %s | %,d | %,d | ", w.contender(), w.shape().files(),
          w.shape().tasks()));
      WriteResult x = w.result();
      if (x == null) {
        sb.append(notRun(w.decision(), w.failure())).append(" | | | | | | |\n");
        continue;
      }
      sb.append(String.format(Locale.ROOT, "%.1f | %.2f | %,d | %.2f | %s | %s | %s |%n", x.jobMs() / 1000.0,
          x.commitMs() / 1000.0, x.requests().total(), x.requestsPerFile(), mb(w.heap().beforeBytes()),
          mb(w.heap().peakBytes()), operations(x.requests(), 1)));
    }
    return sb.toString();
  }

  static String checkpointTable(List<CurveCheckpoint> cs) {
    StringBuilder sb = new StringBuilder();
    sb.append("| checkpoint | partitions | s per batch | requests per batch | files per batch | requests per file"
        + " | requests per batch by operation |\n|---|---:|---:|---:|---:|---:|---|\n");
    for (CurveCheckpoint c : cs) {
      sb.append(String.format(Locale.ROOT, "| %s | %,d | ", c.contender(), c.partitions()));
      CheckpointResult x = c.result();
      if (x == null) {
        sb.append(notRun(c.decision(), c.failure())).append(" | | | | |\n");
        continue;
      }
      sb.append(String.format(Locale.ROOT, "%.2f | %,.1f | %,.1f | %s | %s |%n", x.meanBatchMs() / 1000.0,
          x.requestsPerBatch(), x.filesPerBatch(),
          Double.isNaN(x.requestsPerFile()) ? "-" : String.format(Locale.ROOT, "%.2f", x.requestsPerFile()),
          operations(x.requests(), x.batches())));
    }
    return sb.toString();
  }

  private static String notRun(CostBudget.Decision d, String failure) {
    return failure != null ? "**failed**: " + failure.replace('|', '/') : "skipped: " + d.reason();
  }

  private static String operations(Requests q, int per) {
    if (q.byOperation().isEmpty()) {
      return "none";
    }
    return q.byOperation().entrySet().stream().map(e -> per == 1
        ? String.format(Locale.ROOT, "%s %,d", e.getKey(), e.getValue())
        : String.format(Locale.ROOT, "%s %,.1f", e.getKey(), e.getValue() / (double) per))
        .collect(Collectors.joining(", "));
  }

  private static String mb(long bytes) {
    return bytes < 0 ? "-" : String.format(Locale.ROOT, "%,d", bytes >> 20);
  }
}
