package io.objectcommit.direct.impl;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The task attempts of this JVM that are writing, by attempt id: how the work file system, which Hadoop creates
 * and caches itself, finds the attempt that owns a path. JVM-wide on purpose: Hadoop instantiates that file system
 * by reflection from a URI, with no way to hand it the committer's objects, so the JVM is the only scope the two
 * share. Attempts unregister when they commit or abort.
 */
public final class AttemptRegistry {

  private static final Map<String, AttemptWriter> ACTIVE = new ConcurrentHashMap<>();

  private AttemptRegistry() {
  }

  static void register(AttemptWriter w) {
    AttemptWriter old = ACTIVE.put(w.attemptId(), w);
    if (old != null && old != w) {
      old.closeQuietly();
    }
  }

  static void unregister(AttemptWriter w) {
    ACTIVE.remove(w.attemptId(), w);
  }

  /** The writer of an attempt, or null. */
  public static AttemptWriter get(String attemptId) {
    return ACTIVE.get(attemptId);
  }

  /** Number of registered attempts (tests). */
  public static int size() {
    return ACTIVE.size();
  }
}
