package io.objectcommit.store.guarantee;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** What the conditional-write check found on one bucket and endpoint: which guarantees hold, and its cost. */
public final class GuaranteeReport {

  /** What checking one guarantee (or the cleanup) cost: requests sent (retries included), retries, wall time. */
  public static final class Cost {
    private final long requests;
    private final long retries;
    private final long millis;

    public Cost(long requests, long retries, long millis) {
      this.requests = requests;
      this.retries = retries;
      this.millis = millis;
    }

    /** Requests sent, each retry counted as one more. */
    public long requests() {
      return requests;
    }

    /** How many of {@link #requests()} were retries of a failed request (timeouts, throttling, 5xx). */
    public long retries() {
      return retries;
    }

    public long millis() {
      return millis;
    }

    @Override
    public String toString() {
      return requests + " requests" + (retries == 0 ? "" : " (" + retries + " retried)") + ", " + millis + " ms";
    }
  }

  private final String where;
  private final List<StoreGuarantee> asked;
  private final Set<StoreGuarantee> checked;
  private final Map<StoreGuarantee, String> failures;
  private final Map<StoreGuarantee, Cost> costs;
  private final Cost cleanup;
  private final long requests;
  private final long millis;

  public GuaranteeReport(String where, Set<StoreGuarantee> checked, Map<StoreGuarantee, String> failures,
      long requests, long millis) {
    this(where, GuaranteeCheck.order(checked), checked, failures, Map.of(), null, requests, millis);
  }

  /**
   * @param asked the guarantees asked for, in the order the check takes them (those not checked after a failure
   *     included)
   * @param costs what each guarantee cost, where the check measured it alone (the races always; the sequential
   *     guarantees when checked one at a time)
   * @param cleanup what the cleanup cost, or null
   */
  public GuaranteeReport(String where, List<StoreGuarantee> asked, Set<StoreGuarantee> checked,
      Map<StoreGuarantee, String> failures, Map<StoreGuarantee, Cost> costs, Cost cleanup, long requests,
      long millis) {
    this.where = where;
    this.asked = Collections.unmodifiableList(new ArrayList<>(asked));
    this.checked = Collections.unmodifiableSet(checked.isEmpty() ? EnumSet.noneOf(StoreGuarantee.class)
        : EnumSet.copyOf(checked));
    this.failures = Collections.unmodifiableMap(failures.isEmpty() ? new EnumMap<>(StoreGuarantee.class)
        : new EnumMap<>(failures));
    this.costs = Collections.unmodifiableMap(costs.isEmpty() ? new EnumMap<>(StoreGuarantee.class)
        : new EnumMap<>(costs));
    this.cleanup = cleanup;
    this.requests = requests;
    this.millis = millis;
  }

  /** The store checked: bucket and endpoint. */
  public String where() {
    return where;
  }

  /** The guarantees asked for, in the order the check takes them: the sequential ones, then the two races. */
  public List<StoreGuarantee> asked() {
    return asked;
  }

  public Set<StoreGuarantee> checked() {
    return checked;
  }

  /** The guarantees asked for but not checked: a check that stops at its first failure skips the rest. */
  public Set<StoreGuarantee> notChecked() {
    Set<StoreGuarantee> s = EnumSet.noneOf(StoreGuarantee.class);
    asked.stream().filter(g -> !checked.contains(g)).forEach(s::add);
    return s;
  }

  /** The guarantees checked that hold. */
  public Set<StoreGuarantee> held() {
    Set<StoreGuarantee> s = EnumSet.noneOf(StoreGuarantee.class);
    checked.stream().filter(g -> !failures.containsKey(g)).forEach(s::add);
    return s;
  }

  /** The guarantees that failed, each with what was seen. */
  public Map<StoreGuarantee, String> failures() {
    return failures;
  }

  public boolean holds(StoreGuarantee g) {
    return checked.contains(g) && !failures.containsKey(g);
  }

  /** What checking {@code g} cost, where it was measured alone (empty for a guarantee checked side by side). */
  public Optional<Cost> cost(StoreGuarantee g) {
    return Optional.ofNullable(costs.get(g));
  }

  /** What deleting the check's objects and aborting its refused uploads cost, where measured. */
  public Optional<Cost> cleanup() {
    return Optional.ofNullable(cleanup);
  }

  /** Requests the check sent. */
  public long requests() {
    return requests;
  }

  /** Wall time of the check. */
  public long millis() {
    return millis;
  }

  @Override
  public String toString() {
    return where + ": " + held().size() + " of " + checked.size() + " guarantees hold"
        + (failures.isEmpty() ? "" : "; failed: " + failures.entrySet().stream()
            .map(e -> e.getKey() + " (" + e.getValue() + ")").collect(Collectors.joining("; ")))
        + " [" + requests + " requests, " + millis + " ms]";
  }
}
