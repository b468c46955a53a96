package io.objectcommit.store.guarantee;

import io.objectcommit.store.StoreConstants;
import java.util.Objects;

/**
 * Where the store guarantee check writes for a component: a key prefix under which the component is about to write
 * anyway (its checkpoint namespace, the committer's bookkeeping under the destination), so that the permissions the
 * job needs for its own writes are all the check needs, and a policy that lets a job write only under its prefix
 * (the usual way teams share a bucket) does not refuse the check. Also the user's operation that needs the check,
 * which a check that cannot run names. Only where the check writes depends on it: the verdict is the store's, kept
 * per bucket and endpoint ({@link StoreGuarantees}). {@value StoreConstants#PROBE_PREFIX}, when set, wins.
 */
public final class ProbeSite {

  /** The directory a write through the store alone probes in, under the written key's parent. */
  static final String PROBE_DIR = ".objectcommit/probe/";

  private final String prefix;
  private final String operation;

  private ProbeSite(String prefix, String operation) {
    if (prefix.startsWith("/") || !(prefix.isEmpty() || prefix.endsWith("/"))) {
      throw new IllegalArgumentException("a probe prefix is a key prefix ending with '/', without a leading '/': '"
          + prefix + "'");
    }
    this.prefix = prefix;
    this.operation = operation;
  }

  /**
   * The check writes its objects (each run in a fresh {@code check-<uuid>/} below, deleted at its end) under
   * {@code keyPrefix}.
   *
   * @param keyPrefix a key prefix ending with '/' where the component writes anyway
   */
  public static ProbeSite under(String keyPrefix) {
    return new ProbeSite(Objects.requireNonNull(keyPrefix, "keyPrefix"), null);
  }

  /** This site, with the user's operation that needs the check ({@code initialize ckpt://bucket/}). */
  public ProbeSite forOperation(String op) {
    return new ProbeSite(prefix, Objects.requireNonNull(op, "operation"));
  }

  /** The site of a conditional write of {@code key} by a caller that named none: beside the key. */
  static ProbeSite besideKey(String key) {
    return under(key.substring(0, key.lastIndexOf('/') + 1) + PROBE_DIR);
  }

  /** The site of a caller that names no place and writes nothing yet: {@value StoreConstants#PROBE_PREFIX_FALLBACK}. */
  static ProbeSite fallback() {
    return under(StoreConstants.PROBE_PREFIX_FALLBACK);
  }

  /** The key prefix the check writes under: empty or ending with '/'. */
  public String prefix() {
    return prefix;
  }

  /** The user's operation that needs the check, or null. */
  public String operation() {
    return operation;
  }

  @Override
  public String toString() {
    return "probes under '" + prefix + "'" + (operation == null ? "" : " for " + operation);
  }
}
