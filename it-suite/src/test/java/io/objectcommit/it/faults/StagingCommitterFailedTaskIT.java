package io.objectcommit.it.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.testsupport.TestTags;
import org.junit.jupiter.api.Tag;
/**
 * {@link AbstractFailedTaskIT} with the staging committer: the failed attempt wrote only to its local buffer, so
 * nothing of it reaches the table; the retry commits, the job is exact, and the re-run appends exactly once more.
 */
@Tag(TestTags.COMPONENT)
class StagingCommitterFailedTaskIT extends AbstractFailedTaskIT {

  @Override
  protected CommitterContender contender() {
    return StagingCommitters.parquetBinding();
  }

  @Override
  protected void verify(Outcome o) {
    assertNull(o.firstRunFailure, "the retried task commits and the job succeeds: " + o);
    assertEquals(ROWS, o.rowsAfterFailure, "exactly the rows of one run: " + o);
    assertTrue(o.keysAfterFailure.stream().noneMatch(k -> k.contains(".objectcommit-staging/")),
        "no task record left: " + o.keysAfterFailure);
    assertEquals(2 * ROWS, o.rowsAfterRerun, o.toString());
    assertEquals(ROWS, o.distinctIdsAfterRerun, o.toString());
  }
}
