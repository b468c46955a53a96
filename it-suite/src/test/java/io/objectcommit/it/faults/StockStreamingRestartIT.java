package io.objectcommit.it.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

/**
 * Reproduction: a stateful query checkpointing to s3a:// with Spark's default checkpoint manager, restarted while
 * listings lag, does not recover. The offset log's newest entry ({@code offsets/2}) is missing from the LIST, so
 * the restart takes batch 1 as the latest, plans batch 2 again, finds {@code offsets/2} present when it tries to
 * write it, and the query stops with "Concurrent update to the log. Multiple streaming jobs detected for 2".
 */
class StockStreamingRestartIT extends AbstractStreamingRestartIT {

  @Override
  protected CheckpointContender contender() {
    return StockCheckpoints.s3aDefault();
  }

  @Override
  protected void verify(Outcome o) {
    assertEquals(List.of(0L, 1L, 2L), o.firstRunBatches, "the first run is healthy: " + o);
    assertNotNull(o.failure, "the restarted query fails: " + o);
    assertTrue(rootMessage(o.failure).contains("Concurrent update to the log. Multiple streaming jobs detected for 2"),
        "it re-plans the hidden batch 2: " + o);
    assertEquals(List.of(), o.restartBatches, "no batch completes after the restart: " + o);
  }
}
