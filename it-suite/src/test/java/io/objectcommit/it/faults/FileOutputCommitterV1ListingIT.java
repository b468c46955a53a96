package io.objectcommit.it.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.it.SmokeJob;

/**
 * Reproduction: FileOutputCommitter v1 on s3a:// loses a task's output when listings lag, and reports success.
 * Task commit renames (copies) the attempt's file into {@code _temporary/0/task_.../}; job commit lists that
 * directory to merge it into the table, the LIST does not show the file just copied, so nothing is merged; the
 * cleanup's recursive delete misses it too, and it stays behind in {@code _temporary/}.
 */
class FileOutputCommitterV1ListingIT extends AbstractJobCommitListingIT {

  @Override
  protected CommitterContender contender() {
    return StockCommitters.fileOutputCommitterV1();
  }

  @Override
  protected void verify(Outcome o) {
    assertNull(o.failure, "the job reports success: " + o);
    assertTrue(o.successMarker, "_SUCCESS is written: " + o);
    assertEquals(FILES - 1, o.dataFiles.size(), "one task's file is missing: " + o);
    assertTrue(o.dataFiles.stream().noneMatch(f -> f.startsWith("part-00001-")), o.toString());
    assertTrue(o.leftovers.stream().anyMatch(k -> k.contains("part-00001-")), "stranded in _temporary: " + o);
    assertTrue(o.read.rows < ROWS && o.read.rows > 0, "rows short: " + o);
    assertEquals(ROWS / FILES * (FILES - 1), o.read.rows, "exactly one task's rows are lost: " + o);
    assertTrue(!SmokeJob.expected(ROWS).equals(o.read));
  }
}
