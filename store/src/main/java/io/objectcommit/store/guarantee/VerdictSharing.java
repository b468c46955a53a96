package io.objectcommit.store.guarantee;

import static io.objectcommit.store.StoreConstants.SHARE_VERDICT;
import static io.objectcommit.store.StoreConstants.SHARE_VERDICT_DEFAULT;

import io.objectcommit.store.config.ConfigReader;
import java.util.Optional;

/**
 * Whether the guarantee check's verdict travels from a Spark driver to its executors
 * ({@value io.objectcommit.store.StoreConstants#SHARE_VERDICT}), and the verdict this store's configuration
 * carries for its bucket and endpoint, if any ({@link SharedVerdict#key}): parsed once per store, as part of its
 * configuration. A carried value that cannot be read is not an error of the user's (the key is internal): it is
 * ignored, and said once in a WARN by {@link VerdictHandoff}, and the JVM checks the store itself. Immutable.
 */
public final class VerdictSharing {

  /** Sharing off, nothing carried. */
  public static final VerdictSharing OFF = new VerdictSharing(false, null, null, null);

  private final boolean enabled;
  private final String key;
  private final SharedVerdict carried;
  private final String unreadable;

  private VerdictSharing(boolean enabled, String key, SharedVerdict carried, String unreadable) {
    this.enabled = enabled;
    this.key = key;
    this.carried = carried;
    this.unreadable = unreadable;
  }

  /**
   * The sharing setting of the reader's bucket (a bad value fails naming the key) and the verdict carried for
   * {@code where}, the store's bucket and endpoint.
   */
  public static VerdictSharing from(ConfigReader r, String where) {
    boolean enabled = r.getBoolean(SHARE_VERDICT, SHARE_VERDICT_DEFAULT);
    String key = SharedVerdict.key(r.bucket(), where);
    String value = r.configuration().getTrimmed(key, "");
    if (!enabled || value.isEmpty()) {
      return new VerdictSharing(enabled, key, null, null);
    }
    try {
      return new VerdictSharing(true, key, SharedVerdict.decode(value), null);
    } catch (IllegalArgumentException e) {
      return new VerdictSharing(true, key, null, e.getMessage());
    }
  }

  /** Whether the driver hands its verdict on, and an executor takes its driver's. */
  public boolean enabled() {
    return enabled;
  }

  /** The configuration key of this store's verdict. */
  public String key() {
    return key;
  }

  /** The verdict the configuration carries for this store. */
  public Optional<SharedVerdict> carried() {
    return Optional.ofNullable(carried);
  }

  /** Why a carried value could not be read, if one could not. */
  public Optional<String> unreadable() {
    return Optional.ofNullable(unreadable);
  }

  @Override
  public String toString() {
    return "verdict sharing " + (enabled ? "on" : "off") + (carried == null ? "" : ", carrying a " + carried);
  }
}
