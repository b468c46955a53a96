package io.objectcommit.store.testing;

import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.IOException;
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

/**
 * Something a test runs once inside the request path of an {@link InMemoryObjectStore}, to force an interleaving
 * deterministically: on the first request of an operation whose key matches a pattern, {@link #before(S3Operation, String, Action) before}
 * the request is applied (it then lands after the action finished) or {@link #after(S3Operation, String, Action) after} it was applied and
 * before its answer returns. The action may send requests of its own on the same bucket (they do not fire the
 * hook again). Installed with {@link InMemoryObjectStore#addHook(RequestHook)}.
 */
public final class RequestHook {

  /** What the hook runs. */
  @FunctionalInterface
  public interface Action {
    void run() throws IOException;
  }

  private final S3Operation operation;
  private final Pattern keyPattern;
  private final boolean afterApplying;
  private final Action action;
  private final AtomicBoolean fired = new AtomicBoolean();

  private RequestHook(S3Operation operation, Pattern keyPattern, boolean afterApplying, Action action) {
    this.operation = Objects.requireNonNull(operation, "operation");
    this.keyPattern = keyPattern;
    this.afterApplying = afterApplying;
    this.action = Objects.requireNonNull(action, "action");
  }

  /** Runs {@code action} before the first request of {@code op} whose key contains a match of {@code regex}. */
  public static RequestHook before(S3Operation op, String regex, Action action) {
    return new RequestHook(op, Pattern.compile(regex), false, action);
  }

  /** Runs {@code action} after the first such request was applied, before its answer (or failure) returns. */
  public static RequestHook after(S3Operation op, String regex, Action action) {
    return new RequestHook(op, Pattern.compile(regex), true, action);
  }

  /** Whether the hook has run. */
  public boolean fired() {
    return fired.get();
  }

  boolean isAfterApplying() {
    return afterApplying;
  }

  /** Claims the hook for this request if it matches and has not run yet. */
  boolean claim(S3Operation op, Collection<String> keys) {
    return op == operation && keys.stream().anyMatch(k -> keyPattern.matcher(k).find())
        && fired.compareAndSet(false, true);
  }

  void run() throws IOException {
    action.run();
  }

  @Override
  public String toString() {
    return "run once " + (afterApplying ? "after " : "before ") + operation + " matching /" + keyPattern + "/";
  }
}
