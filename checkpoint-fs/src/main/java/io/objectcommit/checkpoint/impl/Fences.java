package io.objectcommit.checkpoint.impl;

import io.objectcommit.checkpoint.files.DirManifest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The owner epochs this process writes checkpoint locations with (fencing, docs/checkpoint-format.md#fencing), by
 * namespace ({@code s3://bucket/prefix}) and location path. JVM-wide, as a process's: every FileSystem instance of a
 * namespace sees them (Hadoop's cached one, those {@code FileSystem.newInstance} and {@code FileContext} make, and
 * the ones a disabled cache makes for each of Spark's checkpoint managers). Tests give instances different scopes
 * ({@link io.objectcommit.checkpoint.CheckpointConstants#TEST_FENCE_SCOPE}) to play different processes.
 */
final class Fences {

  private static final Map<String, Map<String, DirManifest.Owner>> SCOPES = new ConcurrentHashMap<>();

  private Fences() {
  }

  /** The epochs of a scope ("" in production), by namespace and location. */
  static Map<String, DirManifest.Owner> of(String scope) {
    return SCOPES.computeIfAbsent(scope, s -> new ConcurrentHashMap<>());
  }
}
