package io.objectcommit.it.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reproduction: with direct writing (work path = destination) the failed attempt's files are already in the
 * table. The retry writes the same names ({@code part-<task>-<jobId>-c<n>}) and Parquet creates without
 * overwrite, so the retry fails with {@code FileAlreadyExistsException} and the job fails. Its tasks' files stay in
 * the table (orphans, including the failed attempt's partial output) and readers see them; the re-run appends
 * the whole dataset beside them: duplicate rows.
 */
class DirectCommitterFailedTaskIT extends AbstractFailedTaskIT {

  @Override
  protected CommitterContender contender() {
    return StockCommitters.direct();
  }

  @Override
  protected void verify(Outcome o) {
    assertNotNull(o.firstRunFailure, "the first run fails: " + o);
    assertTrue(String.valueOf(o.firstRunFailure.getMessage()).contains("FileAlreadyExistsException"),
        "the retry trips over the failed attempt's output: " + o.firstRunFailure);
    assertTrue(o.keysAfterFailure.stream().noneMatch(k -> k.endsWith("_SUCCESS")), o.keysAfterFailure.toString());
    assertTrue(o.keysAfterFailure.stream().anyMatch(k -> k.contains("part-0000" + FAILING_PARTITION + "-")),
        "the failing task's partial output stays: " + o.keysAfterFailure);
    assertTrue(o.rowsAfterFailure > 0 && o.rowsAfterFailure < ROWS, "a failed job's rows are readable: " + o);
    assertEquals(ROWS, o.distinctIdsAfterRerun, o.toString());
    assertEquals(ROWS + o.rowsAfterFailure, o.rowsAfterRerun, "the orphans are duplicated by the re-run: " + o);
  }
}
