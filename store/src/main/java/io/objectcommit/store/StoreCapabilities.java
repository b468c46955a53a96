package io.objectcommit.store;

/** What a bucket's store supports, and how it was established. */
public final class StoreCapabilities {

  /** How conditional writes are made safe. */
  public enum ConditionalWrites {
    /** Probed: the store refuses a second exclusive PUT of one key. */
    VERIFIED,
    /** Trusted without a probe ({@code fs.objectcommit.conditional-writes=assume}). */
    ASSUMED,
    /**
     * Trusted without a probe because the store is Amazon S3, which documents conditional writes
     * ({@code fs.objectcommit.conditional-writes=detect}; docs/stores.md lists the endpoint forms).
     */
    DOCUMENTED,
    /**
     * Emulated by HEAD-then-PUT ({@code fs.objectcommit.conditional-writes=emulate}): correct with one writer per
     * key, unsafe with racing writers.
     */
    EMULATED
  }

  private final ConditionalWrites conditionalWrites;

  public StoreCapabilities(ConditionalWrites conditionalWrites) {
    this.conditionalWrites = conditionalWrites;
  }

  public ConditionalWrites conditionalWrites() {
    return conditionalWrites;
  }

  /** True when racing conditional writes are decided by the store itself. */
  public boolean atomicConditionalWrites() {
    return conditionalWrites != ConditionalWrites.EMULATED;
  }

  @Override
  public String toString() {
    return "conditional writes " + conditionalWrites;
  }
}
