package io.objectcommit.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CleanUpTest {

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  @Test
  void theStepRunsUninterruptedAndTheInterruptIsRestored() throws IOException {
    Thread.currentThread().interrupt();
    boolean seen = CleanUp.call(() -> Thread.currentThread().isInterrupted());
    assertFalse(seen, "the step's requests go out as from a thread that was not interrupted");
    assertTrue(Thread.interrupted(), "the caller still sees its interrupt");
  }

  @Test
  void theInterruptIsRestoredWhenTheStepFails() {
    Thread.currentThread().interrupt();
    IOException failure = new IOException("refused");
    IOException e = assertThrows(IOException.class, () -> CleanUp.run(() -> {
      throw failure;
    }));
    assertSame(failure, e);
    assertTrue(Thread.interrupted());
  }

  @Test
  void aThreadThatWasNotInterruptedIsNotInterruptedAfterwards() throws IOException {
    int[] runs = {0};
    CleanUp.run(() -> runs[0]++);
    assertEquals(1, runs[0]);
    assertFalse(Thread.currentThread().isInterrupted());
    assertThrows(InterruptedIOException.class, () -> CleanUp.run(() -> {
      throw new InterruptedIOException("from the step");
    }));
    assertFalse(Thread.currentThread().isInterrupted(), "no interrupt is invented");
  }
}
