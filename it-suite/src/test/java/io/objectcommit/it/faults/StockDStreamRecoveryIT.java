package io.objectcommit.it.faults;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reproduction: {@code StreamingContext.getOrCreate} on s3a:// picks the newest checkpoint a LIST shows; while
 * listings lag that is an older one (or none, and the application starts from scratch).
 */
class StockDStreamRecoveryIT extends AbstractDStreamRecoveryIT {

  @Override
  protected CheckpointContender contender() {
    return StockCheckpoints.s3aDefault();
  }

  @Override
  protected void verify(Outcome o) {
    assertTrue(o.latestWritten > 0, "the application checkpointed: " + o);
    assertTrue(o.failure != null || o.recovered < o.latestWritten, "recovery used an old checkpoint: " + o);
  }
}
