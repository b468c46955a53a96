package io.objectcommit.it.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.bench.CurveCheckpoint;
import io.objectcommit.bench.CurveResults;
import io.objectcommit.bench.CurveRun;
import io.objectcommit.bench.CurveSettings;
import io.objectcommit.bench.CurveWrite;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tiny runs of the cost-curve harness (no added latency): two write contenders at 50 and 100 files and one task
 * writing 50, two checkpoint contenders at 2 and 4 partitions, the reports written; then a budget too small for
 * anything but a first size. Not a benchmark: only the counts and the skips are asserted.
 */
@S3IntegrationTest
class CostCurvesIT {

  @Test
  void everySizeRunsWithinTheBudgetAndTheReportsAreWritten(S3TestBucket bucket) throws Exception {
    Path out = Path.of("target", "curves-it");
    CurveSettings settings = CurveSettings.parse(List.of("files=50,100", "one-task-files=50", "partitions=2,4",
        "batches=1", "latency-ms=0", "master=local[2]", "budget-s=3600", "write-contenders=direct,staging",
        "checkpoint-contenders=S3 backend,Spark default")).withOutputDir(out);
    CurveResults r = new CurveRun(settings, bucket.endpoint(), "test").run();

    assertTrue(r.failures().isEmpty(), r.failures().toString());
    assertEquals(6, r.writes().size());
    assertTrue(r.writes().stream().allMatch(CurveWrite::measured), r.writes().toString());
    for (CurveWrite w : r.writes()) {
      assertTrue(w.heap().samples() > 0 && w.heap().peakBytes() > 0, w.toString());
    }
    // exact growth from 50 files in 1 task to 100 files in 2 tasks (the fixed per-job requests, the store guarantee
    // check of each fresh bucket among them, cancel out): direct, one upload per file and 3 requests per task
    // (2 task-record PUTs, the job-abort marker GET at task commit; its commit protocol hands the record to the
    // driver, so job commit reads none); staging, whose small files ride in the task record, one PUT per file at job
    // commit and 2 requests per task (the record's PUT, the marker's GET; its commit protocol hands the record over)
    assertEquals(50 + 3, growth(r, "objectcommit direct"));
    assertEquals(50 + 2, growth(r, "objectcommit staging"));
    for (String c : List.of("objectcommit direct", "objectcommit staging")) {
      assertEquals(total(r, CurveWrite.SPREAD, c, 50), total(r, CurveWrite.ONE_TASK, c, 50),
          c + ": 50 files from one task, the same write either way");
    }
    assertEquals(4, r.checkpoints().size());
    for (CurveCheckpoint c : r.checkpoints()) {
      assertTrue(c.measured(), c.toString());
      if (c.contender().equals("objectcommit ckpt:// S3 backend")) {
        assertEquals(c.result().filesWritten(), c.result().requests().of("PUT"), "one PUT per checkpoint file: "
            + c);
      }
    }
    String md = Files.readString(out.resolve("curves.md"));
    assertTrue(md.contains("| objectcommit direct | 100 | 2 |"), md);
    assertTrue(Files.readString(out.resolve("curves.json")).contains("\"heapPeakInCommitBytes\""));
    String svg = Files.readString(out.resolve("curves.svg"));
    assertTrue(svg.startsWith("<svg") && svg.contains("<polyline"), svg);
  }

  private static long growth(CurveResults r, String contender) {
    return total(r, CurveWrite.SPREAD, contender, 100) - total(r, CurveWrite.SPREAD, contender, 50);
  }

  private static long total(CurveResults r, String curve, String contender, int files) {
    return r.writesOf(curve).stream().filter(w -> w.contender().equals(contender) && w.shape().files() == files)
        .findFirst().orElseThrow().result().requests().total();
  }

  @Test
  void aSizeProjectedOverTheBudgetIsSkippedWithItsProjection(S3TestBucket bucket) {
    CurveSettings settings = CurveSettings.parse(List.of("files=50,100", "one-task-files=50", "partitions=",
        "latency-ms=0", "master=local[2]", "budget-s=0.001", "write-contenders=direct")).withOutputDir(
        Path.of("target", "curves-it-budget"));
    CurveResults r = new CurveRun(settings, bucket.endpoint(), "test").run();

    assertEquals(3, r.writes().size());
    CurveWrite first = r.writes().get(0);
    assertTrue(first.measured(), first.toString());
    for (CurveWrite skipped : r.writes().subList(1, 3)) {
      assertFalse(skipped.measured(), skipped.toString());
      assertNull(skipped.failure());
      assertTrue(skipped.decision().projectedSeconds() > 0.001, skipped.toString());
      assertTrue(skipped.decision().reason().startsWith("projected "), skipped.decision().reason());
    }
    assertTrue(r.checkpoints().isEmpty());
  }
}
