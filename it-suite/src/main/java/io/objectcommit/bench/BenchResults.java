package io.objectcommit.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything one run measured, with what it ran on.
 *
 * @param settings the run's settings
 * @param date when the run started (ISO-8601)
 * @param machine a description of the machine and endpoint, for example {@code 2 cores, LocalStack host mode}
 * @param writes write results in run order
 * @param checkpoints checkpoint results in run order
 * @param failures contenders that failed, with the error (empty when all ran)
 */
public record BenchResults(BenchSettings settings, String date, String machine, List<WriteResult> writes,
    List<CheckpointResult> checkpoints, List<String> failures) {

  public BenchResults {
    writes = List.copyOf(writes);
    checkpoints = List.copyOf(checkpoints);
    failures = List.copyOf(failures);
  }

  /** The shapes in run order. */
  public List<String> shapes() {
    return writes.stream().map(WriteResult::shape).distinct().toList();
  }

  /** The partition counts in run order. */
  public List<Integer> partitionCounts() {
    return checkpoints.stream().map(CheckpointResult::partitions).distinct().toList();
  }

  public List<WriteResult> writesOf(String shape) {
    return writes.stream().filter(w -> w.shape().equals(shape)).toList();
  }

  /** The state stores in run order. */
  public List<StateStoreChoice> stateStores() {
    return checkpoints.stream().map(CheckpointResult::stateStore).distinct().toList();
  }

  /** The results at one partition count with one state store, in run order. */
  public List<CheckpointResult> checkpointsAt(int partitions, StateStoreChoice stateStore) {
    return checkpoints.stream().filter(c -> c.partitions() == partitions && c.stateStore() == stateStore).toList();
  }

  /** As plain maps and lists, for {@link Json}. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = ReportFiles.jsonHeader(date, machine, settings.describe());
    m.put("write", writes.stream().map(w -> {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("shape", w.shape());
      r.put("files", w.files());
      r.put("contender", w.contender());
      w.putNumbers(r);
      return r;
    }).toList());
    m.put("checkpoint", checkpoints.stream().map(c -> {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("partitions", c.partitions());
      r.put("contender", c.contender());
      r.put("stateStore", c.stateStore().key());
      c.putNumbers(r);
      return r;
    }).toList());
    m.put("failures", failures);
    m.put("targets", Targets.evaluate(this).stream().map(t -> Map.of("target", t.target(), "met", t.met(),
        "detail", t.detail())).toList());
    return m;
  }
}
