package io.objectcommit.it.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.testsupport.TestTags;
import org.junit.jupiter.api.Tag;
/**
 * The scenario that breaks stock DStream checkpoints on s3a:// ({@link StockDStreamRecoveryIT}), same seed, with
 * the checkpoint on the S3 manifest backend: getOrCreate recovers the latest checkpoint.
 */
@Tag(TestTags.COMPONENT)
class CkptDStreamRecoveryIT extends AbstractDStreamRecoveryIT {

  @Override
  protected CheckpointContender contender() {
    return ObjectCommitCheckpoints.s3();
  }

  @Override
  protected void verify(Outcome o) {
    assertNull(o.failure, o.toString());
    assertTrue(o.latestWritten > 0, "checkpoints were written: " + o);
    assertEquals(o.latestWritten, o.recovered, "recovery uses the latest checkpoint: " + o);
  }
}
