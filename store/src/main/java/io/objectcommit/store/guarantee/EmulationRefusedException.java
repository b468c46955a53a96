package io.objectcommit.store.guarantee;

import io.objectcommit.store.StoreConstants;
import org.apache.hadoop.fs.PathIOException;

/**
 * {@value StoreConstants#CONDITIONAL_WRITES}{@code =emulate} was set for a component that cannot be safe with it:
 * the component relies on {@link StoreGuarantee#ATOMIC_COMPARE_AND_SWAP} (racing {@code If-Match} writes of one
 * object give one winner), and its writers race in normal operation, so a HEAD before each write would lose updates.
 * Raised before the component writes anything; names the component and the setting. See docs/stores.md.
 */
public class EmulationRefusedException extends PathIOException {

  private static final long serialVersionUID = 1L;

  private final String component;
  private final String setting;

  /**
   * @param path the bucket, e.g. {@code s3://b/}
   * @param detail what is refused, why, and what to set instead
   * @param component the component refused, as named in the message
   */
  public EmulationRefusedException(String path, String detail, String component) {
    super(path, detail);
    this.component = component;
    this.setting = StoreConstants.CONDITIONAL_WRITES;
  }

  /** The component that cannot run with emulated conditional writes. */
  public String component() {
    return component;
  }

  /** The setting to change: {@value StoreConstants#CONDITIONAL_WRITES}. */
  public String setting() {
    return setting;
  }
}
