package io.objectcommit.bench;

/** Progress lines on standard output ({@code [bench] ...}), flushed at once so that a terminal shows them live. */
public final class Progress {

  private Progress() {
  }

  public static void say(String line) {
    System.out.println("[bench] " + line);
    System.out.flush();
  }

  /** A line with the wall time since {@code startNanos} appended when it differs from the measured one. */
  public static void say(String line, long startNanos) {
    say(line + String.format(" [%.0f s with setup]", (System.nanoTime() - startNanos) / 1e9));
  }
}
