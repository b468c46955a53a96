package io.objectcommit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CostBudgetTest {

  private final CostBudget budget = new CostBudget(200);

  @Test
  void aFirstSizeAlwaysRuns() {
    assertTrue(budget.first().run());
    assertTrue(Double.isNaN(budget.first().projectedSeconds()));
  }

  @Test
  void writesProjectLinearlyInFiles() {
    CostBudget.Decision run = budget.write(8.8, 1000, 10_000);
    assertTrue(run.run());
    assertEquals(88, run.projectedSeconds(), 1e-9);
    assertEquals("", run.reason());
    CostBudget.Decision skip = budget.write(35.9, 1000, 10_000);
    assertFalse(skip.run());
    assertEquals(359, skip.projectedSeconds(), 1e-9);
    assertTrue(skip.reason().startsWith("projected 359 s (35.9 s at 1,000 files × 10,000/1,000) > budget 200 s"),
        skip.reason());
    assertTrue(budget.write(20, 100, 1000).run(), "exactly the budget runs");
  }

  @Test
  void oneTaskDoesSeriallyWhatTheSlotsDidSideBySide() {
    // 20 tasks on 8 slots: 8 at a time
    CostBudget.Decision d = budget.oneTask(8.8, 1000, 20, 8, 1000);
    assertEquals(70.4, d.projectedSeconds(), 1e-9);
    assertTrue(d.run());
    // 2 tasks on 8 slots: 2 at a time
    assertEquals(20, budget.oneTask(5, 100, 2, 8, 200).projectedSeconds(), 1e-9);
    assertFalse(budget.oneTask(30.2, 1000, 20, 8, 1000).run());
  }

  @Test
  void checkpointsProjectLinearlyInPartitionsOverEveryMicroBatch() {
    CostBudget.Decision d = budget.checkpoint(3.69, 200, 1000, 2);
    assertEquals(3.69 * 5 * 3, d.projectedSeconds(), 1e-9);
    assertTrue(d.run());
    CostBudget.Decision skip = budget.checkpoint(23.94, 200, 1000, 2);
    assertFalse(skip.run());
    assertTrue(skip.reason().contains("3 micro-batches"), skip.reason());
  }

  @Test
  void afterASkipNothingLargerRuns() {
    CostBudget.Decision d = budget.afterSkip("1,000 files");
    assertFalse(d.run());
    assertEquals("not measured at 1,000 files", d.reason());
  }
}
