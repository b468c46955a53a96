package io.objectcommit.it.seeded;

import java.util.List;
import java.util.Map;

/** What one seeded streaming run did and left. */
final class CheckpointOutcome {

  final String contender;
  final long seed;
  /** One entry per time the query failed and was restarted (its root cause). */
  final List<String> queryFailures;
  final boolean finished;
  final Map<Integer, Long> lastCounts;
  final Map<Integer, Long> expectedCounts;
  /** Micro-batch ids in the order the sink saw them (a re-run batch appears twice). */
  final List<Long> sinkBatches;
  /** Problems {@code objectcommit checkpoint verify} found, or null when it does not apply (stock). */
  final List<String> verifyProblems;
  final int pendingUploads;
  final double seconds;
  final long requests;
  final String injected;
  final int peakConnections;
  final Resources.Sample resources;

  CheckpointOutcome(String contender, long seed, List<String> queryFailures, boolean finished,
      Map<Integer, Long> lastCounts, Map<Integer, Long> expectedCounts, List<Long> sinkBatches,
      List<String> verifyProblems, int pendingUploads, double seconds, long requests, String injected,
      int peakConnections, Resources.Sample resources) {
    this.contender = contender;
    this.seed = seed;
    this.queryFailures = List.copyOf(queryFailures);
    this.finished = finished;
    this.lastCounts = Map.copyOf(lastCounts);
    this.expectedCounts = Map.copyOf(expectedCounts);
    this.sinkBatches = List.copyOf(sinkBatches);
    this.verifyProblems = verifyProblems == null ? null : List.copyOf(verifyProblems);
    this.pendingUploads = pendingUploads;
    this.seconds = seconds;
    this.requests = requests;
    this.injected = injected;
    this.peakConnections = peakConnections;
    this.resources = resources;
  }

  /** The query processed every file and its state is exactly the expected counts; nothing left behind. */
  boolean exact() {
    return finished && lastCounts.equals(expectedCounts) && pendingUploads == 0
        && (verifyProblems == null || verifyProblems.isEmpty());
  }

  /** Per-key difference from the expected counts: positive for counted twice, negative for lost. */
  long countError() {
    long d = 0;
    for (Map.Entry<Integer, Long> e : expectedCounts.entrySet()) {
      d += lastCounts.getOrDefault(e.getKey(), 0L) - e.getValue();
    }
    return d;
  }

  String problems() {
    StringBuilder sb = new StringBuilder();
    if (!finished) {
      sb.append("query did not finish (").append(queryFailures.size()).append(" failures); ");
    }
    long d = countError();
    if (d > 0) {
      sb.append(d).append(" rows counted twice; ");
    } else if (d < 0 && finished) {
      sb.append(-d).append(" rows lost; ");
    }
    if (verifyProblems != null && !verifyProblems.isEmpty()) {
      sb.append("verify: ").append(verifyProblems.size()).append(" problems; ");
    }
    if (pendingUploads > 0) {
      sb.append(pendingUploads).append(" pending uploads; ");
    }
    return sb.toString().trim();
  }

  @Override
  public String toString() {
    return contender + " seed " + seed + ": " + (exact() ? "exact" : "NOT EXACT: " + problems()) + "; counts "
        + lastCounts + " (expected " + expectedCounts + "), sink batches " + sinkBatches + ", restarts after "
        + queryFailures + ", verify " + verifyProblems + ", pending uploads " + pendingUploads
        + String.format(", %.1f s, %d requests, injected %s, peak connections %d, after: %s", seconds, requests,
            injected, peakConnections, resources);
  }
}
