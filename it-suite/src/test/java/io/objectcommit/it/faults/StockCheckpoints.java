package io.objectcommit.it.faults;

import java.util.Map;

/** Checkpointing as a Spark 3.5 user has it without us. */
public final class StockCheckpoints {

  private StockCheckpoints() {
  }

  /** {@code s3a://} with Spark's default manager (FileContext-based; rename = copy + delete on S3A). */
  public static CheckpointContender s3aDefault() {
    return CheckpointContender.of("s3a:// with Spark's default checkpoint manager",
        (bucket, relative) -> bucket.bucket().s3a(relative), Map.of());
  }
}
