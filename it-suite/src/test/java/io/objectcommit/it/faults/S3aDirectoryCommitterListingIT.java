package io.objectcommit.it.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.it.SmokeJob;

/**
 * The same scenario as {@link FileOutputCommitterV1ListingIT} with the S3A directory committer, which never
 * lists S3 to find its output (pending uploads travel through the local cluster file system): the exact result.
 * It shows how a contender that survives the fault is asserted.
 */
class S3aDirectoryCommitterListingIT extends AbstractJobCommitListingIT {

  @Override
  protected CommitterContender contender() {
    return StockCommitters.s3aDirectory();
  }

  @Override
  protected void verify(Outcome o) {
    assertNull(o.failure, o.toString());
    assertTrue(o.successMarker, o.toString());
    assertEquals(FILES, o.dataFiles.size(), o.toString());
    assertEquals(SmokeJob.expected(ROWS), o.read, o.toString());
  }
}
