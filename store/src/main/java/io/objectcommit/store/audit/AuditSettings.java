package io.objectcommit.store.audit;

import static io.objectcommit.store.StoreConstants.AUDIT_REFERRER_ENABLED;
import static io.objectcommit.store.StoreConstants.AUDIT_REFERRER_ENABLED_DEFAULT;
import static io.objectcommit.store.StoreConstants.AUDIT_REFERRER_FILTER;
import static io.objectcommit.store.StoreConstants.S3A_AUDIT_REFERRER_ENABLED;
import static io.objectcommit.store.StoreConstants.S3A_AUDIT_REFERRER_FILTER;

import io.objectcommit.store.config.ConfigReader;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Whether a store's requests carry the attribution header, and which of its fields are left out: parsed once per
 * store, as part of its configuration. Our keys win; where one is unset, S3A's own key for the same thing counts
 * (a user who turned S3A's referrer off, or filtered a field out of it, for a bucket whose logs another party
 * reads, expects the same of every connector of the job). Immutable.
 */
public final class AuditSettings {

  /** The header on, every field in it. */
  public static final AuditSettings DEFAULT = new AuditSettings(true, Set.of());
  /** No header. */
  public static final AuditSettings OFF = new AuditSettings(false, Set.of());

  private final boolean enabled;
  private final Set<String> filter;

  public AuditSettings(boolean enabled, Set<String> filter) {
    this.enabled = enabled;
    this.filter = Set.copyOf(filter);
  }

  /**
   * {@value io.objectcommit.store.StoreConstants#AUDIT_REFERRER_ENABLED}, else
   * {@value io.objectcommit.store.StoreConstants#S3A_AUDIT_REFERRER_ENABLED}, and the filter likewise (per-bucket
   * forms of each first). A value other than true or false fails naming the key in force.
   */
  public static AuditSettings from(ConfigReader r) {
    String enabledKey = r.get(AUDIT_REFERRER_ENABLED, null) != null ? AUDIT_REFERRER_ENABLED
        : S3A_AUDIT_REFERRER_ENABLED;
    boolean enabled = r.getBoolean(enabledKey, AUDIT_REFERRER_ENABLED_DEFAULT);
    String filterKey = r.get(AUDIT_REFERRER_FILTER, null) != null ? AUDIT_REFERRER_FILTER
        : S3A_AUDIT_REFERRER_FILTER;
    List<String> fields = r.getList(filterKey, List.of());
    return new AuditSettings(enabled, new LinkedHashSet<>(fields));
  }

  /** Whether requests carry the header. */
  public boolean enabled() {
    return enabled;
  }

  /** Query fields left out of the header (the operation and span id in its path stay, as with S3A). */
  public Set<String> filter() {
    return filter;
  }

  @Override
  public String toString() {
    return "attribution header " + (enabled ? "on" : "off") + (filter.isEmpty() ? "" : " without " + filter);
  }
}
