package io.objectcommit.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Everything one cost-curve run measured or skipped, with what it ran on.
 *
 * @param settings the run's settings
 * @param date when the run started (ISO-8601)
 * @param machine the machine, endpoint and Spark version
 * @param writes write points, in run order
 * @param checkpoints checkpoint points, in run order
 */
public record CurveResults(CurveSettings settings, String date, String machine, List<CurveWrite> writes,
    List<CurveCheckpoint> checkpoints) {

  public CurveResults {
    writes = List.copyOf(writes);
    checkpoints = List.copyOf(checkpoints);
  }

  /** The failed points, as {@code what: error}. */
  public List<String> failures() {
    return Stream.concat(
        writes.stream().filter(w -> w.failure() != null)
            .map(w -> "write " + w.shape().label() + ", " + w.contender() + ": " + w.failure()),
        checkpoints.stream().filter(c -> c.failure() != null)
            .map(c -> "checkpoint " + c.partitions() + " partitions, " + c.contender() + ": " + c.failure()))
        .toList();
  }

  /** The write points of one curve. */
  public List<CurveWrite> writesOf(String curve) {
    return writes.stream().filter(w -> w.curve().equals(curve)).toList();
  }

  /** The write contenders in run order. */
  public List<String> writeContenders() {
    return writes.stream().map(CurveWrite::contender).distinct().toList();
  }

  /** The checkpoint contenders in run order. */
  public List<String> checkpointContenders() {
    return checkpoints.stream().map(CurveCheckpoint::contender).distinct().toList();
  }

  /** As plain maps and lists, for {@link Json}. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = ReportFiles.jsonHeader(date, machine, settings.describe());
    m.put("write", writes.stream().map(w -> {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("curve", w.curve());
      r.put("shape", w.shape().label());
      r.put("files", w.shape().files());
      r.put("tasks", w.shape().tasks());
      r.put("contender", w.contender());
      decision(r, w.decision());
      if (w.result() != null) {
        w.result().putNumbers(r);
      }
      if (w.heap() != null) {
        r.put("heapBeforeCommitBytes", w.heap().beforeBytes());
        r.put("heapPeakInCommitBytes", w.heap().peakBytes());
        r.put("heapSamplesInCommit", w.heap().samples());
      }
      r.put("failure", w.failure());
      return r;
    }).toList());
    m.put("checkpoint", checkpoints.stream().map(c -> {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("partitions", c.partitions());
      r.put("contender", c.contender());
      decision(r, c.decision());
      if (c.result() != null) {
        c.result().putNumbers(r);
      }
      r.put("failure", c.failure());
      return r;
    }).toList());
    m.put("failures", failures());
    return m;
  }

  private static void decision(Map<String, Object> r, CostBudget.Decision d) {
    r.put("run", d.run());
    r.put("projectedSeconds", d.projectedSeconds());
    r.put("skipReason", d.reason().isEmpty() ? null : d.reason());
  }
}
