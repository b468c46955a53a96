package io.objectcommit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class CurveReportsTest {

  private static final CostBudget BUDGET = new CostBudget(200);

  private static CurveResults results() {
    CurveSettings s = CurveSettings.defaults();
    WriteShape small = CurveSettings.spread(100);
    WriteShape large = CurveSettings.spread(1000);
    WriteResult measured = new WriteResult(small.label(), 100, "S3A magic", 30_000, 1_500,
        new Requests(new TreeMap<>(Map.of("PUT", 300L, "HEAD", 100L)), 10));
    CurveWrite first = new CurveWrite(CurveWrite.SPREAD, small, "S3A magic", BUDGET.first(), measured,
        new HeapSampler.Peak(300L << 20, 200L << 20, 12), null);
    CurveWrite skipped = new CurveWrite(CurveWrite.SPREAD, large, "S3A magic", BUDGET.write(30, 100, 1000), null,
        null, null);
    CheckpointResult ckpt = new CheckpointResult(8, "objectcommit ckpt:// S3 backend", List.of(500L, 700L),
        new Requests(new TreeMap<>(Map.of("PUT", 22L, "GET", 4L)), 0), 22);
    return new CurveResults(s, "2026-11-26T22:45:00Z", "test", List.of(first, skipped),
        List.of(new CurveCheckpoint(8, ckpt.contender(), BUDGET.first(), ckpt, null)));
  }

  @Test
  void theReportHasAMeasuredRowAndASkippedRowWithItsProjection() {
    String md = CurveReport.render(results());
    assertTrue(md.contains("| S3A magic | 100 | 2 | 30.0 | 1.50 | 400 | 4.00 | 200 | 300 | HEAD 100, PUT 300 |"), md);
    assertTrue(md.contains("| S3A magic | 1,000 | 20 | skipped: projected 300 s (30.0 s at 100 files × 1,000/100)"
        + " > budget 200 s |"), md);
    assertTrue(md.contains("| objectcommit ckpt:// S3 backend | 8 | 0.60 | 13.0 | 11.0 | 1.18 | GET 2.0, PUT 11.0 |"),
        md);
  }

  @Test
  void theJsonKeepsTheSkipAndTheChartDrawsOnlyMeasuredPoints() {
    CurveResults r = results();
    String json = Json.write(r.toMap());
    assertTrue(json.contains("\"skipReason\": \"projected 300 s"), json);
    assertTrue(json.contains("\"heapPeakInCommitBytes\": " + (300L << 20)), json);
    String svg = CurveChart.render(r);
    // one line per contender and panel: the write panels' magic line has one point, the checkpoint panels' one
    assertEquals(4, svg.split("<polyline", -1).length - 1, svg);
    assertEquals(4, svg.split("<circle", -1).length - 1, svg);
  }
}
