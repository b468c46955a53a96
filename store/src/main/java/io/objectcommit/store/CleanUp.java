package io.objectcommit.store;

import java.io.IOException;

/**
 * Requests that must be sent even on an interrupted thread: the clean-up after a failed or abandoned write.
 *
 * <p>Spark interrupts the threads of the tasks it cancels and of a streaming query it stops, and both AWS SDKs refuse
 * every request of an interrupted thread. A clean-up sent on such a thread would fail at once and leave what it
 * should remove (an uploaded object nothing names, a task's files after a job abort), or could not check what a
 * write that was cut short did. {@link #call} sets the interrupt aside for the few requests of the clean-up and
 * restores it afterwards, so the caller still sees it.
 */
public final class CleanUp {

  /** A clean-up step that answers something: requests to the store. */
  @FunctionalInterface
  public interface Step<T> {
    T run() throws IOException;
  }

  /** A clean-up step: requests to the store. */
  @FunctionalInterface
  public interface Action {
    void run() throws IOException;
  }

  private CleanUp() {
  }

  /** {@link #call} of a step that answers nothing. */
  public static void run(Action action) throws IOException {
    call(() -> {
      action.run();
      return null;
    });
  }

  /** Runs {@code step} with the thread's interrupt set aside; the interrupt is restored afterwards. */
  public static <T> T call(Step<T> step) throws IOException {
    boolean interrupted = Thread.interrupted();
    try {
      return step.run();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
