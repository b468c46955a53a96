package io.objectcommit.store.guarantee;

import io.objectcommit.store.ConditionalWritesUnsupportedException;
import io.objectcommit.store.StoreConstants;
import java.util.Map;
import java.util.Set;

/**
 * The store fails a {@link StoreGuarantee} that the component about to write relies on. Raised once per bucket and
 * endpoint, before anything unsafe is written; names the guarantee, what the check saw, the store and the remedy.
 */
public class StoreGuaranteeException extends ConditionalWritesUnsupportedException {

  private static final long serialVersionUID = 1L;

  /** An immutable map (serializable: the exception travels from Spark tasks to the driver). */
  private final Map<StoreGuarantee, String> failed;

  public StoreGuaranteeException(String path, String detail, Map<StoreGuarantee, String> failed) {
    super(path, detail);
    this.failed = Map.copyOf(failed);
  }

  /**
   * @param store  the bucket and endpoint, for messages (never credentials)
   * @param bucket the bucket, or null if unknown
   * @param detail what failed, and what to do
   * @param failed the guarantees that failed, with what the check saw
   */
  public StoreGuaranteeException(String store, String bucket, String detail, Map<StoreGuarantee, String> failed) {
    super(bucket == null ? store : "s3://" + bucket + "/", detail, store, bucket, StoreConstants.CONDITIONAL_WRITES);
    this.failed = Map.copyOf(failed);
  }

  /** The guarantees that failed, with what the check saw. */
  public Set<StoreGuarantee> failedGuarantees() {
    return failed.keySet();
  }

  public Map<StoreGuarantee, String> failures() {
    return failed;
  }
}
