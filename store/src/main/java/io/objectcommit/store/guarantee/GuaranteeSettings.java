package io.objectcommit.store.guarantee;

import static io.objectcommit.store.StoreConstants.CONDITIONAL_WRITES;
import static io.objectcommit.store.StoreConstants.CONDITIONAL_WRITES_DEFAULT;
import static io.objectcommit.store.StoreConstants.PROBE_PREFIX;
import static io.objectcommit.store.StoreConstants.PROBE_PREFIX_DEFAULT;

import io.objectcommit.store.config.ConfigReader;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings of the store guarantee policy for one bucket ({@link GuardedObjectStore}): the mode of
 * {@value io.objectcommit.store.StoreConstants#CONDITIONAL_WRITES} and, when the user sets one, where the check writes
 * ({@value io.objectcommit.store.StoreConstants#PROBE_PREFIX}; unset, the check writes where the component asking is
 * about to write, {@link ProbeSite}). Parsed once, as part of the store's configuration; immutable.
 */
public final class GuaranteeSettings {

  /** The values of {@value io.objectcommit.store.StoreConstants#CONDITIONAL_WRITES}. */
  public enum Mode {
    /**
     * Check each guarantee a component or a conditional write relies on, once per bucket and endpoint, except on
     * Amazon S3 ({@link AmazonS3Endpoint}), which documents them: trusted without a request.
     */
    DETECT,
    /** As {@link #DETECT}, on every store: Amazon S3 is checked too. */
    CHECK,
    /** Trust the store: no check. */
    ASSUME,
    /** A HEAD before each conditional write, which is then sent without its condition (one writer per key). */
    EMULATE
  }

  private final Mode mode;
  /** Set by the user; null: where the component writes. */
  private final String probePrefix;

  /**
   * Settings with a probe prefix set by the user, which wins over every component's {@link ProbeSite}.
   *
   * @param probePrefix the key prefix the check writes under, ending in '/'
   */
  public GuaranteeSettings(Mode mode, String probePrefix) {
    this.mode = Objects.requireNonNull(mode, "mode");
    this.probePrefix = Objects.requireNonNull(probePrefix, "probePrefix");
  }

  /** Settings without a probe prefix: the check writes where the component asking writes. */
  public GuaranteeSettings(Mode mode) {
    this.mode = Objects.requireNonNull(mode, "mode");
    this.probePrefix = null;
  }

  /** Reads the settings of the reader's bucket; a bad mode fails naming its key and the choices. */
  public static GuaranteeSettings from(ConfigReader r) {
    Mode mode = r.getEnum(CONDITIONAL_WRITES, Mode.class,
        Mode.valueOf(CONDITIONAL_WRITES_DEFAULT.toUpperCase(Locale.ROOT)));
    String probe = r.get(PROBE_PREFIX, PROBE_PREFIX_DEFAULT);
    if (probe.isEmpty()) {
      return new GuaranteeSettings(mode);
    }
    if (probe.startsWith("/")) {
      throw r.bad(PROBE_PREFIX, probe, "a key prefix inside the bucket, without a leading '/'");
    }
    return new GuaranteeSettings(mode, probe.endsWith("/") ? probe : probe + "/");
  }

  public Mode mode() {
    return mode;
  }

  /**
   * The key prefix under which the check writes (and then deletes) its objects when the user set one, else empty:
   * then where the component asking is about to write ({@link ProbeSite}).
   */
  public Optional<String> probePrefix() {
    return Optional.ofNullable(probePrefix);
  }

  @Override
  public String toString() {
    return "conditional writes " + mode + (probePrefix == null ? "" : ", probe prefix " + probePrefix);
  }
}
