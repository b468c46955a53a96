package io.objectcommit.bench;

/**
 * One checkpoint contender at one shuffle partition count: measured, skipped by the budget, or failed.
 *
 * @param partitions {@code spark.sql.shuffle.partitions}
 * @param contender the contender's name
 * @param decision the budget's decision for this size
 * @param result the measurement, null when skipped or failed
 * @param failure the error, null unless the run failed
 */
public record CurveCheckpoint(int partitions, String contender, CostBudget.Decision decision,
    CheckpointResult result, String failure) {

  public boolean measured() {
    return result != null;
  }
}
