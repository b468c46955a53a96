package io.objectcommit.store.guarantee;

import static io.objectcommit.store.StoreConstants.CONDITIONAL_WRITES;
import static io.objectcommit.store.StoreConstants.CONDITIONAL_WRITES_DEFAULT;
import static io.objectcommit.store.StoreConstants.PROBE_PREFIX;
import static io.objectcommit.store.StoreConstants.PROBE_PREFIX_DEFAULT;

import io.objectcommit.store.config.ConfigReader;
import java.util.Locale;
import java.util.Objects;

/**
 * The settings of the store guarantee policy for one bucket ({@link GuardedObjectStore}): the mode of
 * {@value io.objectcommit.store.StoreConstants#CONDITIONAL_WRITES} and where the check writes
 * ({@value io.objectcommit.store.StoreConstants#PROBE_PREFIX}). Parsed once, as part of the store's configuration;
 * immutable.
 */
public final class GuaranteeSettings {

  /** The values of {@value io.objectcommit.store.StoreConstants#CONDITIONAL_WRITES}. */
  public enum Mode {
    /** Check each guarantee a component or a conditional write relies on, once per bucket and endpoint. */
    DETECT,
    /** Trust the store: no check. */
    ASSUME,
    /** A HEAD before each conditional write, which is then sent without its condition (one writer per key). */
    EMULATE
  }

  private final Mode mode;
  private final String probePrefix;

  /** @param probePrefix the key prefix the check writes under, ending in '/' */
  public GuaranteeSettings(Mode mode, String probePrefix) {
    this.mode = Objects.requireNonNull(mode, "mode");
    this.probePrefix = Objects.requireNonNull(probePrefix, "probePrefix");
  }

  /** Reads the settings of the reader's bucket; a bad mode fails naming its key and the choices. */
  public static GuaranteeSettings from(ConfigReader r) {
    Mode mode = r.getEnum(CONDITIONAL_WRITES, Mode.class,
        Mode.valueOf(CONDITIONAL_WRITES_DEFAULT.toUpperCase(Locale.ROOT)));
    String probe = r.get(PROBE_PREFIX, PROBE_PREFIX_DEFAULT);
    return new GuaranteeSettings(mode, probe.endsWith("/") ? probe : probe + "/");
  }

  public Mode mode() {
    return mode;
  }

  /** The key prefix under which the check writes (and then deletes) its objects. */
  public String probePrefix() {
    return probePrefix;
  }

  @Override
  public String toString() {
    return "conditional writes " + mode + ", probe prefix " + probePrefix;
  }
}
