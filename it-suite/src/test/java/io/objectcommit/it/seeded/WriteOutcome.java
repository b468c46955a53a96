package io.objectcommit.it.seeded;

import java.util.List;

/** What one seeded write left, read with a plain client (not through the proxy). */
final class WriteOutcome {

  final String contender;
  final long seed;
  final boolean partitioned;
  /** One entry per failed job run (the orchestrator re-ran it), its root cause. */
  final List<String> jobFailures;
  final boolean succeeded;
  final int dataFiles;
  final boolean successMarker;
  /** Keys under the table that are neither data files nor {@code _SUCCESS}. */
  final List<String> strays;
  final int pendingUploads;
  final long rows;
  final long distinctIds;
  final long idSum;
  final double seconds;
  final long requests;
  final String injected;
  final int peakConnections;
  final Resources.Sample resources;
  /** Files the run added to the staging committer's local buffer directories (and did not remove). */
  final long bufferFilesLeft;

  WriteOutcome(String contender, long seed, boolean partitioned, List<String> jobFailures, boolean succeeded,
      int dataFiles, boolean successMarker, List<String> strays, int pendingUploads, long rows, long distinctIds,
      long idSum, double seconds, long requests, String injected, int peakConnections, Resources.Sample resources,
      long bufferFilesLeft) {
    this.contender = contender;
    this.seed = seed;
    this.partitioned = partitioned;
    this.jobFailures = List.copyOf(jobFailures);
    this.succeeded = succeeded;
    this.dataFiles = dataFiles;
    this.successMarker = successMarker;
    this.strays = List.copyOf(strays);
    this.pendingUploads = pendingUploads;
    this.rows = rows;
    this.distinctIds = distinctIds;
    this.idSum = idSum;
    this.seconds = seconds;
    this.requests = requests;
    this.injected = injected;
    this.peakConnections = peakConnections;
    this.resources = resources;
    this.bufferFilesLeft = bufferFilesLeft;
  }

  long expectedIdSum() {
    return SeededWrite.ROWS * (SeededWrite.ROWS - 1) / 2;
  }

  long duplicates() {
    return rows - distinctIds;
  }

  long lost() {
    return SeededWrite.ROWS - distinctIds;
  }

  /** Every row once, no stray object, no pending upload, the job committed. */
  boolean exact() {
    return succeeded && successMarker && rows == SeededWrite.ROWS && distinctIds == SeededWrite.ROWS
        && idSum == expectedIdSum() && strays.isEmpty() && pendingUploads == 0 && bufferFilesLeft <= 0;
  }

  /** What went wrong, in a few words (empty when exact). */
  String problems() {
    StringBuilder sb = new StringBuilder();
    if (!succeeded) {
      sb.append("job failed ").append(jobFailures.size()).append("x; ");
    }
    if (lost() > 0) {
      sb.append(lost()).append(" rows lost; ");
    }
    if (duplicates() > 0) {
      sb.append(duplicates()).append(" rows duplicated; ");
    }
    if (!strays.isEmpty()) {
      sb.append(strays.size()).append(" stray objects; ");
    }
    if (pendingUploads > 0) {
      sb.append(pendingUploads).append(" pending uploads; ");
    }
    if (bufferFilesLeft > 0) {
      sb.append(bufferFilesLeft).append(" local buffer files left; ");
    }
    if (succeeded && !successMarker) {
      sb.append("no _SUCCESS; ");
    }
    return sb.toString().trim();
  }

  @Override
  public String toString() {
    return contender + " seed " + seed + (partitioned ? " (partitionBy)" : "") + ": "
        + (exact() ? "exact" : "NOT EXACT: " + problems()) + "; rows " + rows + ", distinct " + distinctIds
        + ", files " + dataFiles + ", strays " + strays + ", pending uploads " + pendingUploads + ", local buffer files"
        + " left " + bufferFilesLeft + ", job failures "
        + jobFailures + String.format(", %.1f s, %d requests, injected %s, peak connections %d, after: %s", seconds,
            requests, injected, peakConnections, resources);
  }
}
