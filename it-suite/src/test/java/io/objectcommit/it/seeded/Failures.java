package io.objectcommit.it.seeded;

import io.objectcommit.testsupport.proxy.ErrorRule;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import java.util.Map;

/** Small helpers for reporting what a seeded run met. */
final class Failures {

  private Failures() {
  }

  /** The innermost cause's class and message, shortened to one line. */
  static String root(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    String msg = c.getClass().getSimpleName() + ": " + c.getMessage();
    msg = msg.replaceAll("\\s+", " ");
    return msg.length() > 240 ? msg.substring(0, 240) + "..." : msg;
  }

  /** The errors the proxy injected under the current plan, as {@code 503:n 500:n reset:n reset-after:n}. */
  static String injected(S3FaultProxy proxy) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<ErrorRule, Long> e : proxy.injectedErrors().entrySet()) {
      ErrorRule r = e.getKey();
      String name = r.kind().status() == 0 ? "reset" : Integer.toString(r.kind().status());
      sb.append(sb.length() == 0 ? "" : " ").append(name).append(r.isAfterUpstream() ? "-after" : "").append(':')
          .append(e.getValue());
    }
    return sb.toString();
  }

  /** Sleeps, as a supervisor waits before it restarts what failed. */
  static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting to restart", e);
    }
  }
}
