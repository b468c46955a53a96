package io.objectcommit.it.direct;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.objectcommit.it.faults.AbstractFailedTaskIT;
import io.objectcommit.it.faults.CommitterContender;
import io.objectcommit.testsupport.TestTags;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;

/**
 * The reproduction scenario of the naive direct committer ({@code DirectCommitterFailedTaskIT}) with ours: the
 * first attempt of task 3 fails after 2,500 of its 5,000 rows (it wrote c000, c001 and, on abort, the partial
 * c002); the retry writes c000..c004. The job succeeds with exactly the 20 files of the retried and other tasks,
 * no bookkeeping left, and the re-run appends exactly once more.
 */
@Tag(TestTags.COMPONENT)
class DirectParquetFailedTaskIT extends AbstractFailedTaskIT {

  @Override
  protected CommitterContender contender() {
    return DirectCommitters.parquet();
  }

  @Override
  protected void verify(Outcome o) {
    assertNull(o.firstRunFailure, "the retried task makes the job succeed: " + o);
    List<String> data = o.keysAfterFailure.stream().filter(k -> k.endsWith(".parquet")).collect(Collectors.toList());
    List<String> shapes = data.stream().map(k -> k.replaceAll("-[0-9a-f-]{36}-", "-UUID-")).sorted()
        .collect(Collectors.toList());
    List<String> expected = new ArrayList<>();
    for (int task = 0; task < TASKS; task++) {
      for (int c = 0; c < 5; c++) {
        expected.add(String.format("table/part-%05d-UUID-c%03d.snappy.parquet", task, c));
      }
    }
    assertEquals(expected, shapes, "exactly 5 files of 1,000 rows per task, none of the failed attempt: " + o);
    assertEquals(21, o.keysAfterFailure.size(), "the 20 files and _SUCCESS, no bookkeeping: " + o.keysAfterFailure);
    assertEquals(ROWS, o.rowsAfterFailure, o.toString());
    assertEquals(2 * ROWS, o.rowsAfterRerun, "the re-run appends exactly once: " + o);
    assertEquals(ROWS, o.distinctIdsAfterRerun, o.toString());
  }
}
