package io.objectcommit.bench;

import io.objectcommit.testsupport.proxy.S3Operation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The benchmark's Markdown tables: one per write shape, one per checkpoint partition count and state store, then the
 * targets.
 */
final class MarkdownReport {

  private MarkdownReport() {
  }

  static String render(BenchResults r) {
    StringBuilder sb = new StringBuilder();
    BenchSettings s = r.settings();
    sb.append(String.format("Run of %s (%s mode): %s; Spark %s, %d ms added to every S3 request%s.%n%n", r.date(),
        s.mode(), r.machine(), s.master(), s.latencyMs(),
        s.sparkConf().isEmpty() ? "" : "; for every contender: " + s.sparkConf()));
    for (String shape : r.shapes()) {
      sb.append(writeTable(shape, r.writesOf(shape))).append('\n');
    }
    for (int p : r.partitionCounts()) {
      for (StateStoreChoice store : r.stateStores()) {
        List<CheckpointResult> rs = r.checkpointsAt(p, store);
        if (!rs.isEmpty()) {
          sb.append(checkpointTable(p, store, rs, s.measuredBatches())).append('\n');
        }
      }
    }
    if (!r.failures().isEmpty()) {
      sb.append("Failed (no result):\n\n");
      r.failures().forEach(f -> sb.append("- ").append(f).append('\n'));
      sb.append('\n');
    }
    sb.append("Targets:\n\n| target | met | numbers |\n|---|---|---|\n");
    for (Targets.Outcome t : Targets.evaluate(r)) {
      sb.append("| ").append(t.target()).append(" | ").append(t.met() ? "yes" : "**no**").append(" | ")
          .append(t.detail()).append(" |\n");
    }
    return sb.toString();
  }

  static String writeTable(String shape, List<WriteResult> rs) {
    List<String> ops = operations(rs.stream().map(WriteResult::requests).toList());
    long fastest = rs.stream().mapToLong(WriteResult::jobMs).min().orElse(1);
    StringBuilder sb = new StringBuilder();
    sb.append("Write, ").append(shape).append(" (").append(String.format("%,d", rs.get(0).files()))
        .append(" files):\n\n");
    sb.append("| committer | job s | vs fastest | commit s | requests | per file | 404s");
    ops.forEach(op -> sb.append(" | ").append(op));
    sb.append(" |\n|---|---:|---:|---:|---:|---:|---:").append("|---:".repeat(ops.size())).append("|\n");
    for (WriteResult w : rs) {
      sb.append("| ").append(w.contender())
          .append(" | ").append(String.format("%.1f", w.jobMs() / 1000.0))
          .append(" | ").append(w.jobMs() == fastest ? "fastest" : String.format("%+.0f%%",
              (w.jobMs() / (double) fastest - 1) * 100))
          .append(" | ").append(String.format("%.2f", w.commitMs() / 1000.0))
          .append(" | ").append(String.format("%,d", w.requests().total()))
          .append(" | ").append(String.format("%.2f", w.requestsPerFile()))
          .append(" | ").append(String.format("%,d", w.requests().notFound()));
      ops.forEach(op -> sb.append(" | ").append(String.format("%,d", w.requests().of(op))));
      sb.append(" |\n");
    }
    return sb.toString();
  }

  static String checkpointTable(int partitions, StateStoreChoice store, List<CheckpointResult> rs, int batches) {
    List<String> ops = operations(rs.stream().map(CheckpointResult::requests).toList());
    double base = rs.get(0).meanBatchMs();
    StringBuilder sb = new StringBuilder();
    sb.append("Checkpoint, ").append(partitions).append(" shuffle partitions, ").append(store.label())
        .append(" (mean of micro-batches 1-")
        .append(batches).append("; requests per micro-batch by operation):\n\n");
    sb.append("| checkpoint | s per batch | speed-up vs first | requests per batch | files per batch"
        + " | requests per file");
    ops.forEach(op -> sb.append(" | ").append(op));
    sb.append(" |\n|---|---:|---:|---:|---:|---:").append("|---:".repeat(ops.size())).append("|\n");
    for (CheckpointResult c : rs) {
      sb.append("| ").append(c.contender())
          .append(" | ").append(String.format("%.2f", c.meanBatchMs() / 1000.0))
          .append(" | ").append(String.format("%.1fx", base / c.meanBatchMs()))
          .append(" | ").append(String.format("%,.1f", c.requestsPerBatch()))
          .append(" | ").append(String.format("%.1f", c.filesPerBatch()))
          .append(" | ").append(Double.isNaN(c.requestsPerFile()) ? "-" : String.format("%.2f", c.requestsPerFile()));
      ops.forEach(op -> sb.append(" | ").append(String.format("%,.1f", c.requests().of(op) / (double) c.batches())));
      sb.append(" |\n");
    }
    return sb.toString();
  }

  /** The operations any of {@code rs} used, in {@link S3Operation} order. */
  static List<String> operations(List<Requests> rs) {
    List<String> ops = new ArrayList<>();
    Arrays.stream(S3Operation.values()).map(Enum::name)
        .filter(op -> rs.stream().anyMatch(q -> q.of(op) != 0))
        .forEach(ops::add);
    return ops;
  }
}
