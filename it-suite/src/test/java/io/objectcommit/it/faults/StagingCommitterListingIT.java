package io.objectcommit.it.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.it.SmokeJob;
import io.objectcommit.testsupport.TestTags;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.util.List;
import org.junit.jupiter.api.Tag;

/**
 * The scenario in which FileOutputCommitter v1 loses a task's file ({@link FileOutputCommitterV1ListingIT}), same
 * seed and window, with the staging committer: job commit reads the task records by index and writes the small files
 * they carry (or completes the uploads they name), so the lagging listing changes nothing.
 */
@Tag(TestTags.COMPONENT)
class StagingCommitterListingIT extends AbstractJobCommitListingIT {

  @Override
  protected CommitterContender contender() {
    return StagingCommitters.parquetBinding();
  }

  @Override
  protected void verify(Outcome o) {
    assertNull(o.failure, o.toString());
    assertTrue(o.successMarker, o.toString());
    assertEquals(FILES, o.dataFiles.size(), o.toString());
    assertTrue(o.dataFiles.stream().anyMatch(f -> f.startsWith("part-00001-")), o.toString());
    assertEquals(SmokeJob.expected(ROWS), o.read, o.toString());
    assertEquals(List.of(), o.leftovers, o.toString());
    assertEquals(0, o.counts.of(S3Operation.MULTIPART_INITIATE), "small files ride in their records: " + o);
    assertTrue(o.counts.of(S3Operation.PUT) >= FILES + 2, "a PUT per file, per record and _SUCCESS: " + o);
    assertEquals(0, o.counts.of(S3Operation.COPY), "no rename: " + o);
  }
}
