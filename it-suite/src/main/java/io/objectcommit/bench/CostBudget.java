package io.objectcommit.bench;

import java.util.Locale;

/**
 * The cost curves' rule for "finishes in reasonable time": a contender's first size always runs; each larger size
 * runs only when its projection from the contender's last measured size is within the budget. Projections are
 * linear, because every contender's cost grows at least linearly with the files it writes:
 *
 * <ul>
 *   <li>spread write of {@code n} files: the job seconds at the last measured size × {@code n / files there};
 *   <li>one task writing {@code n} files: the job seconds of the last measured spread write × {@code n / files
 *       there} × the task slots that write used ({@code min(tasks, slots)}): one task does one after another what
 *       those slots did side by side;
 *   <li>checkpoint at {@code p} partitions: the seconds per micro-batch at the last measured count × {@code p /
 *       partitions there} × (measured micro-batches + the unmeasured micro-batch 0).
 * </ul>
 *
 * <p>A contender skipped or failed at a size is not run at any larger one.
 *
 * @param budgetSeconds what a run may be projected to take
 */
public record CostBudget(double budgetSeconds) {

  /**
   * Whether to run, and why.
   *
   * @param run whether the size runs
   * @param projectedSeconds the projection (NaN for a first size, which always runs)
   * @param reason why not, for the report (empty when it runs)
   */
  public record Decision(boolean run, double projectedSeconds, String reason) {

    static Decision first() {
      return new Decision(true, Double.NaN, "");
    }
  }

  /** A contender's first size: always runs. */
  public Decision first() {
    return Decision.first();
  }

  /** The spread write of {@code files} files, after a measured one of {@code measuredFiles} in {@code seconds}. */
  public Decision write(double seconds, int measuredFiles, int files) {
    return decide(seconds * files / measuredFiles, String.format(Locale.ROOT, "%.1f s at %,d files × %,d/%,d",
        seconds, measuredFiles, files, measuredFiles));
  }

  /**
   * One task writing {@code files} files, after a spread write of {@code measuredFiles} files by {@code tasks}
   * tasks in {@code seconds} on {@code slots} task slots.
   */
  public Decision oneTask(double seconds, int measuredFiles, int tasks, int slots, int files) {
    int parallel = Math.max(1, Math.min(tasks, slots));
    return decide(seconds * files / measuredFiles * parallel, String.format(Locale.ROOT,
        "%.1f s at %,d files × %,d/%,d × %d slots", seconds, measuredFiles, files, measuredFiles, parallel));
  }

  /**
   * The checkpoint at {@code partitions}, after {@code secondsPerBatch} per micro-batch at {@code measured}
   * partitions; {@code batches} measured micro-batches plus micro-batch 0.
   */
  public Decision checkpoint(double secondsPerBatch, int measured, int partitions, int batches) {
    return decide(secondsPerBatch * partitions / measured * (batches + 1), String.format(Locale.ROOT,
        "%.2f s per micro-batch at %,d partitions × %,d/%,d × %d micro-batches", secondsPerBatch, measured,
        partitions, measured, batches + 1));
  }

  /** Not run because a smaller size was not measured. */
  public Decision afterSkip(String smaller) {
    return new Decision(false, Double.NaN, "not measured at " + smaller);
  }

  private static String seconds(double s) {
    return String.format(Locale.ROOT, s >= 10 ? "%.0f" : "%.3g", s);
  }

  private Decision decide(double projected, String how) {
    if (projected <= budgetSeconds) {
      return new Decision(true, projected, "");
    }
    return new Decision(false, projected, String.format(Locale.ROOT, "projected %s s (%s) > budget %s s",
        seconds(projected), how, seconds(budgetSeconds)));
  }
}
