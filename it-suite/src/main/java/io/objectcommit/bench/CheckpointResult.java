package io.objectcommit.bench;

import java.util.List;
import java.util.Map;

/**
 * One checkpoint contender's measured micro-batches at one shuffle partition count (micro-batch 0, which
 * creates the checkpoint, is a warm-up and not included).
 *
 * @param partitions {@code spark.sql.shuffle.partitions}
 * @param contender the contender's name
 * @param batchMs wall time of each measured micro-batch (new input to batch committed)
 * @param requests S3 requests of the measured micro-batches
 * @param filesWritten checkpoint files the measured micro-batches added (files listed through the checkpoint's
 *     own file system after them, minus before them)
 * @param stateStore the state store of the query
 */
public record CheckpointResult(int partitions, String contender, List<Long> batchMs, Requests requests,
    long filesWritten, StateStoreChoice stateStore) {

  /** A result with Spark's default state store. */
  public CheckpointResult(int partitions, String contender, List<Long> batchMs, Requests requests,
      long filesWritten) {
    this(partitions, contender, batchMs, requests, filesWritten, StateStoreChoice.DEFAULT);
  }

  public CheckpointResult {
    batchMs = List.copyOf(batchMs);
    if (batchMs.isEmpty()) {
      throw new IllegalArgumentException("no measured micro-batch for " + contender);
    }
  }

  /** Micro-batches measured. */
  public int batches() {
    return batchMs.size();
  }

  /** Mean wall time of a micro-batch, ms. */
  public double meanBatchMs() {
    return batchMs.stream().mapToLong(Long::longValue).average().orElseThrow();
  }

  /** Requests per micro-batch. */
  public double requestsPerBatch() {
    return requests.total() / (double) batches();
  }

  /** Checkpoint files per micro-batch. */
  public double filesPerBatch() {
    return filesWritten / (double) batches();
  }

  /** Requests per checkpoint file written, NaN when no file was seen. */
  public double requestsPerFile() {
    return filesWritten == 0 ? Double.NaN : requests.total() / (double) filesWritten;
  }

  /** Puts this checkpoint run's numbers into a report's JSON object (both reports name them the same). */
  void putNumbers(Map<String, Object> r) {
    r.put("batchMs", batchMs);
    r.put("meanBatchMs", meanBatchMs());
    r.put("requests", requests.total());
    r.put("requestsPerBatch", requestsPerBatch());
    r.put("filesWritten", filesWritten);
    r.put("requestsPerFile", requestsPerFile());
    r.put("requestsByOperation", requests.byOperation());
    r.put("notFound", requests.notFound());
  }
}
