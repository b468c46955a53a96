package io.objectcommit.store.guarantee;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** What the conditional-write check found on one bucket and endpoint: which guarantees hold, and its cost. */
public final class GuaranteeReport {

  private final String where;
  private final Set<StoreGuarantee> checked;
  private final Map<StoreGuarantee, String> failures;
  private final long requests;
  private final long millis;

  public GuaranteeReport(String where, Set<StoreGuarantee> checked, Map<StoreGuarantee, String> failures,
      long requests, long millis) {
    this.where = where;
    this.checked = Collections.unmodifiableSet(checked.isEmpty() ? EnumSet.noneOf(StoreGuarantee.class)
        : EnumSet.copyOf(checked));
    this.failures = Collections.unmodifiableMap(failures.isEmpty() ? new EnumMap<>(StoreGuarantee.class)
        : new EnumMap<>(failures));
    this.requests = requests;
    this.millis = millis;
  }

  /** The store checked: bucket and endpoint. */
  public String where() {
    return where;
  }

  public Set<StoreGuarantee> checked() {
    return checked;
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
