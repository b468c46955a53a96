package io.objectcommit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class CurveSettingsTest {

  @Test
  void defaultsAreTheIssuesSizes() {
    CurveSettings s = CurveSettings.parse(List.of());
    assertEquals(List.of(100, 1000, 10_000), s.files());
    assertEquals(1000, s.oneTaskFiles());
    assertEquals(List.of(8, 200, 1000), s.partitions());
    assertEquals(2, s.batches());
    assertEquals(20, s.latencyMs());
    assertEquals("local[8]", s.master());
    assertTrue(CurveSettings.selected(s.writeContenders(), "S3A magic"));
    assertTrue(CurveSettings.selected(s.checkpointContenders(), "objectcommit ckpt:// S3 backend"));
  }

  @Test
  void overridesApply() {
    CurveSettings s = CurveSettings.parse(List.of("files=20, 40", "one-task-files=0", "partitions=2,4",
        "batches=1", "budget-s=0.5", "latency-ms=0", "master=local[2]", "write-contenders=Direct,staging",
        "checkpoint-contenders="));
    assertEquals(List.of(20, 40), s.files());
    assertNull(s.oneTask());
    assertEquals(List.of(2, 4), s.partitions());
    assertEquals(1, s.batches());
    assertEquals(0.5, s.budgetSeconds());
    assertEquals(0, s.latencyMs());
    assertEquals("local[2]", s.master());
    assertTrue(CurveSettings.selected(s.writeContenders(), "objectcommit direct"));
    assertTrue(CurveSettings.selected(s.writeContenders(), "objectcommit staging"));
    assertFalse(CurveSettings.selected(s.writeContenders(), "S3A directory"), "whole words only");
    assertTrue(CurveSettings.selected(List.of("spark default"), "s3a:// FileContext manager (Spark default)"));
    assertFalse(CurveSettings.selected(s.checkpointContenders(), "objectcommit ckpt:// S3 backend"));
  }

  @Test
  void spreadWritesHaveFiftyFilesPerTaskAndTheSmallFileRows() {
    assertEquals(new WriteShape("10,000 files", 10_000, 200, 800), CurveSettings.spread(10_000));
    assertEquals(new WriteShape("1,000 files", 1000, 20, 800), CurveSettings.spread(1000));
    assertEquals(new WriteShape("20 files", 20, 1, 800), CurveSettings.spread(20));
    assertEquals(new WriteShape("1 task x 1,000 files", 1000, 1, 800), CurveSettings.defaults().oneTask());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CurveSettings.spread(120));
    assertTrue(e.getMessage().contains("files=120"), e.getMessage());
  }

  @Test
  void badValuesFailNamingTheKey() {
    for (String arg : List.of("files=1000,100", "partitions=0", "batches=0", "budget-s=0", "budget-s=x",
        "latency-ms=-1", "one-task-files=-1", "files=a", "files=100,120")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> CurveSettings.parse(List.of(arg)), arg);
      String key = arg.substring(0, arg.indexOf('='));
      assertTrue(e.getMessage().contains(key), arg + ": " + e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> CurveSettings.parse(List.of("sizes=1")));
    assertThrows(IllegalArgumentException.class, () -> CurveSettings.parse(List.of("files")));
  }
}
