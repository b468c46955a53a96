package io.objectcommit.checkpoint.impl;

import io.objectcommit.checkpoint.CheckpointFencedException;
import io.objectcommit.checkpoint.files.DirManifest;

/**
 * What a process knows of its ownership of one checkpoint location: the owner stamp it writes into every manifest
 * it changes under the location, and the check that refuses its write when a manifest carries a newer epoch of the
 * same location. {@link #NONE}: the process was never told an epoch, and writes as before fencing (no check; a
 * manifest keeps the stamp it had). Immutable.
 */
final class Fence {

  /** No epoch known: no stamp, no check. */
  static final Fence NONE = new Fence(null, "");

  private final DirManifest.Owner owner;
  private final String operation;

  private Fence(DirManifest.Owner owner, String operation) {
    this.owner = owner;
    this.operation = operation;
  }

  static Fence of(DirManifest.Owner owner) {
    return new Fence(owner, "");
  }

  /** The same fence, naming the operation in its refusal. */
  Fence forOperation(String op) {
    return owner == null ? this : new Fence(owner, op);
  }

  /**
   * This fence for one write that carries another change of the same owner too (a file and its checksum file): a
   * refusal names both operations.
   */
  Fence and(Fence other) {
    if (owner == null || other.operation.isEmpty()) {
      return this;
    }
    return new Fence(owner, operation.isEmpty() ? other.operation : operation + " and " + other.operation);
  }

  boolean isNone() {
    return owner == null;
  }

  /** The stamp to write; null for {@link #NONE}. */
  DirManifest.Owner owner() {
    return owner;
  }

  /**
   * Refuses a change of {@code current} (the manifest of {@code dirPath}) when it was written by a newer owner of
   * this location.
   */
  void check(DirManifest current, String dirPath) throws CheckpointFencedException {
    DirManifest.Owner last = current.owner;
    if (owner != null && last != null && last.location.equals(owner.location) && last.epoch > owner.epoch) {
      throw new CheckpointFencedException(dirPath, owner.location, operation.isEmpty() ? "a change of " + dirPath
          : operation, owner.id, owner.epoch, last.id, last.epoch);
    }
  }

  /** Stamps a manifest about to be written (nothing for {@link #NONE}). */
  void stamp(DirManifest next) {
    if (owner != null) {
      next.owner = owner;
    }
  }

  @Override
  public String toString() {
    return owner == null ? "no fence" : owner.toString();
  }
}
