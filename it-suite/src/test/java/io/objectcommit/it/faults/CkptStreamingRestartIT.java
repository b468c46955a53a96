package io.objectcommit.it.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.objectcommit.testsupport.TestTags;
import java.util.List;
import org.junit.jupiter.api.Tag;

/**
 * The scenario that breaks stock s3a:// checkpoints ({@link StockStreamingRestartIT}), same seed and window, with
 * the checkpoint on the S3 manifest backend: the restart recovers exactly.
 */
@Tag(TestTags.COMPONENT)
class CkptStreamingRestartIT extends AbstractStreamingRestartIT {

  @Override
  protected CheckpointContender contender() {
    return ObjectCommitCheckpoints.s3();
  }

  @Override
  protected void verify(Outcome o) {
    assertNull(o.failure, "the restart succeeds: " + o);
    assertEquals(List.of(0L, 1L, 2L), o.firstRunBatches, o.toString());
    assertEquals(List.of(3L), o.restartBatches, "exactly the new batch, none twice: " + o);
    assertFalse(o.batchRunTwice(), o.toString());
    assertEquals(o.expectedCounts, o.lastCounts, "exact state after the restart: " + o);
  }
}
