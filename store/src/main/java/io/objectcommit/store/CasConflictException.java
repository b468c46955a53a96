package io.objectcommit.store;


import org.apache.hadoop.fs.PathIOException;

/**
 * A compare-and-swap change gave up: other writers kept changing the record for every configured attempt.
 * Retrying the operation later usually succeeds; under constant contention raise
 * {@value StoreConstants#CAS_ATTEMPTS}.
 */
public class CasConflictException extends PathIOException {

  private static final long serialVersionUID = 1L;

  private final int attempts;

  public CasConflictException(String path, String what, int attempts, Throwable lastConflict) {
    super(path, "gave up after " + attempts + " conflicting concurrent changes of the " + what
        + " (other writers kept changing it); retry the operation, or raise " + StoreConstants.CAS_ATTEMPTS);
    this.attempts = attempts;
    if (lastConflict != null) {
      initCause(lastConflict);
    }
  }

  public int attempts() {
    return attempts;
  }
}
