package io.objectcommit.store.guarantee;

import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.StoreConstants;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

/**
 * The whole store guarantee check of one bucket, run now on demand: every {@link StoreGuarantee}, through a store
 * that sends conditions as given, whatever {@value StoreConstants#CONDITIONAL_WRITES} says (also on Amazon S3,
 * which {@code detect} trusts without a request) and whatever a context already knows of the store (its verdicts
 * are neither read nor changed). What {@code objectcommit store check} runs before a deployment. The sequential
 * guarantees are checked one after another so that the report gives each guarantee's own requests and time
 * ({@link GuaranteeCheck#measuring}). Immutable once run.
 */
public final class StoreCheck {

  private final String where;
  private final AmazonS3Endpoint endpoint;
  private final String probePrefix;
  private final GuaranteeReport report;

  private StoreCheck(String where, AmazonS3Endpoint endpoint, String probePrefix, GuaranteeReport report) {
    this.where = where;
    this.endpoint = endpoint;
    this.probePrefix = probePrefix;
    this.report = report;
  }

  /**
   * Checks every guarantee through {@code store}, writing under {@code probePrefix} (one fresh
   * {@code check-<uuid>/} below it, deleted at the end).
   *
   * @param store a store that sends conditions as given (not inside the guarantee policy); not closed here
   * @param where the bucket and endpoint, for the report and messages
   * @param endpoint whether the store is Amazon S3 (null: not known, a test's store)
   * @param probePrefix a key prefix, empty or ending with '/'
   * @param operation the user's operation, named when the check cannot run ({@code objectcommit store check ...})
   * @param stopAtFirstFailure skip the races once a sequential guarantee failed, as a component's check does
   * @throws IOException when the check could not run (no bucket, an action refused, refused credentials, the
   *     endpoint down): described as a component's check that cannot run is, naming the operation, the bucket and
   *     endpoint and, for a refused action, the action and the key ({@link io.objectcommit.store
   *     .ActionDeniedException})
   */
  public static StoreCheck run(ObjectStore store, String where, AmazonS3Endpoint endpoint, String probePrefix,
      String operation, boolean stopAtFirstFailure) throws IOException {
    String prefix = ProbeSite.under(probePrefix).prefix();
    try {
      GuaranteeReport r = GuaranteeCheck.measuring(store, prefix, stopAtFirstFailure)
          .run(StoreGuarantee.ofWrites());
      return new StoreCheck(Objects.requireNonNull(where, "where"), endpoint, prefix, r);
    } catch (IOException e) {
      throw ProbeFailure.describe(e, operation, operation, store.bucket(), where, prefix, null);
    }
  }

  /** The bucket and endpoint checked. */
  public String where() {
    return where;
  }

  /** Whether the store is Amazon S3 and why (empty when not known). */
  public Optional<AmazonS3Endpoint> amazonS3() {
    return Optional.ofNullable(endpoint);
  }

  /** The key prefix the check wrote under (its objects in a {@code check-<uuid>/} below, deleted at the end). */
  public String probePrefix() {
    return probePrefix;
  }

  /** Per guarantee: verdict, what was seen, requests and time. */
  public GuaranteeReport report() {
    return report;
  }

  /** Whether every guarantee was checked and holds. */
  public boolean allHold() {
    return report.failures().isEmpty() && report.notChecked().isEmpty();
  }

  @Override
  public String toString() {
    return "StoreCheck{" + report + "}";
  }
}
