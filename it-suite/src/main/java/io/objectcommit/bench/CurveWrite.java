package io.objectcommit.bench;

/**
 * One contender at one size of a write curve: measured, skipped by the budget, or failed.
 *
 * @param curve the curve, {@link #SPREAD} or {@link #ONE_TASK}
 * @param shape the write's shape
 * @param contender the committer's name
 * @param decision the budget's decision for this size
 * @param result the measurement, null when skipped or failed
 * @param heap the used heap during the job commit (local mode: the driver's and the executors' JVM), null when not
 *     measured
 * @param failure the error, null unless the write failed
 */
public record CurveWrite(String curve, WriteShape shape, String contender, CostBudget.Decision decision,
    WriteResult result, HeapSampler.Peak heap, String failure) {

  public static final String SPREAD = "spread";
  public static final String ONE_TASK = "one task";

  public boolean measured() {
    return result != null;
  }
}
