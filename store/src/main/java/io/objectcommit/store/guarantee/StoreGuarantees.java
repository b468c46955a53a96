package io.objectcommit.store.guarantee;

import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.StoreConstants;
import java.io.IOException;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the guarantee check found, per bucket and endpoint: each guarantee is checked at most once per bucket and
 * endpoint, the first time a component asks for it; a component that asks for one that failed is refused with a
 * {@link StoreGuaranteeException}. Also remembers which emulation warnings were given.
 *
 * <p>One instance per {@code StoreContext}: the JVM's context holds the verdicts every store of the JVM shares
 * (the Spark tasks and Hadoop file systems of one executor check a bucket once); a test makes its own context, or
 * its own instance, and starts with nothing known. Thread-safe.
 */
public final class StoreGuarantees {

  private static final Logger LOG = LoggerFactory.getLogger(StoreGuarantees.class);

  /**
   * Opens the store the check writes through: one that sends conditions as given (no policy around it, so the
   * check cannot recurse into itself), with statistics of its own (the check's requests are not counted in the
   * statistics of the store that asked). Closed after the check.
   */
  @FunctionalInterface
  public interface CheckStore {
    ObjectStore open() throws IOException;
  }

  private static final class Known {
    final Set<StoreGuarantee> checked = EnumSet.noneOf(StoreGuarantee.class);
    final Map<StoreGuarantee, String> failed = new EnumMap<>(StoreGuarantee.class);
    long requests;
    long millis;
  }

  private final Map<String, Known> known = new ConcurrentHashMap<>();
  private final Set<String> warned = ConcurrentHashMap.newKeySet();
  /** Stores trusted as Amazon S3, logged once each. */
  private final Set<String> trusted = ConcurrentHashMap.newKeySet();

  /** Nothing known yet. */
  public StoreGuarantees() {
  }

  /**
   * Makes sure the store at {@code where} gives every guarantee in {@code needed}: checks those not checked yet
   * (through a store from {@code checkStore}, writing under {@code probePrefix}), then refuses if any failed.
   *
   * @param where bucket and endpoint, the cache key and the name used in messages
   * @param who the component asking, for the message
   * @throws StoreGuaranteeException naming the failed guarantees, the store and the remedy
   */
  void require(String where, String who, Set<StoreGuarantee> needed, String probePrefix,
      CheckStore checkStore) throws IOException {
    require(where, null, who, needed, probePrefix, checkStore);
  }

  /**
   * {@link #require(String, String, Set, String, CheckStore)} for a known bucket, which the refusal carries.
   *
   * @param bucket the bucket (null if unknown)
   */
  void require(String where, String bucket, String who, Set<StoreGuarantee> needed, String probePrefix,
      CheckStore checkStore) throws IOException {
    Known k = known.computeIfAbsent(where, w -> new Known());
    Map<StoreGuarantee, String> failed = new EnumMap<>(StoreGuarantee.class);
    synchronized (k) {
      Set<StoreGuarantee> missing = EnumSet.noneOf(StoreGuarantee.class);
      needed.stream().filter(g -> !k.checked.contains(g)).forEach(missing::add);
      // one guarantee known to fail is enough to refuse: the rest are not checked
      if (!missing.isEmpty() && needed.stream().noneMatch(k.failed::containsKey)) {
        try (ObjectStore store = checkStore.open()) {
          GuaranteeReport r = GuaranteeCheck.refusing(store, probePrefix).run(missing);
          k.checked.addAll(r.checked());
          k.failed.putAll(r.failures());
          k.requests += r.requests();
          k.millis += r.millis();
          LOG.info("Store guarantees of {} checked for {} in {} ms, {} requests: {} hold{}", where, who, r.millis(),
              r.requests(), r.held(), r.failures().isEmpty() ? "" : ", FAILED " + r.failures().keySet());
        }
      }
      needed.stream().filter(k.failed::containsKey).forEach(g -> failed.put(g, k.failed.get(g)));
    }
    if (!failed.isEmpty()) {
      throw refusal(where, bucket, who, failed);
    }
  }

  /**
   * Whether the store at {@code where} gives {@code g}, which a component only asks about (it works either way,
   * {@link StoreGuarantee#IF_MATCH_DELETE}): checked once per bucket and endpoint like the rest, but a failure is
   * an answer, logged at INFO, not a refusal.
   */
  boolean holds(String where, String who, StoreGuarantee g, String probePrefix, CheckStore checkStore)
      throws IOException {
    Known k = known.computeIfAbsent(where, w -> new Known());
    synchronized (k) {
      if (!k.checked.contains(g)) {
        try (ObjectStore store = checkStore.open()) {
          GuaranteeReport r = GuaranteeCheck.refusing(store, probePrefix).run(EnumSet.of(g));
          k.checked.addAll(r.checked());
          k.failed.putAll(r.failures());
          k.requests += r.requests();
          k.millis += r.millis();
          LOG.info("Store guarantee {} of {} checked for {} in {} ms, {} requests: {}", g, where, who, r.millis(),
              r.requests(), r.failures().containsKey(g) ? "does not hold (" + r.failures().get(g) + "); " + who
                  + " falls back to what it did without it" : "holds");
        }
      }
      return !k.failed.containsKey(g);
    }
  }

  /**
   * What this context knows of the store at {@code where}, as a verdict of {@code application} to hand on
   * ({@link VerdictHandoff}); empty when nothing was checked there yet.
   */
  Optional<SharedVerdict> snapshot(String where, String application) {
    Known k = known.get(where);
    if (k == null) {
      return Optional.empty();
    }
    synchronized (k) {
      return k.checked.isEmpty() ? Optional.empty()
          : Optional.of(new SharedVerdict(application, where, k.checked, k.failed));
    }
  }

  /**
   * Takes another JVM's verdict of the store at {@code where} for the guarantees this context has not checked:
   * what this context found itself is kept, and so a guarantee that failed here stays failed.
   *
   * @return the guarantees taken
   */
  Set<StoreGuarantee> adopt(String where, SharedVerdict verdict) {
    Known k = known.computeIfAbsent(where, w -> new Known());
    Set<StoreGuarantee> taken = EnumSet.noneOf(StoreGuarantee.class);
    synchronized (k) {
      for (StoreGuarantee g : verdict.checked()) {
        if (k.checked.add(g)) {
          taken.add(g);
          String seen = verdict.failed().get(g);
          if (seen != null) {
            k.failed.put(g, seen + " (checked by the driver of Spark application " + verdict.application() + ")");
          }
        }
      }
    }
    return taken;
  }

  /**
   * With {@code emulate}: warns once per store and component naming the concurrent uses that lose data, and
   * refuses a component that relies on {@link StoreGuarantee#ATOMIC_COMPARE_AND_SWAP}: its writers race on one
   * object in normal operation (tasks adding files to one {@code ckpt://} directory, attempts of one task declaring
   * into one task record), which a HEAD before the write cannot make safe.
   *
   * @throws EmulationRefusedException for a component that relies on compare-and-swap
   */
  void requireEmulatable(String where, String bucket, String who, Set<StoreGuarantee> needed)
      throws EmulationRefusedException {
    if (needed.contains(StoreGuarantee.ATOMIC_COMPARE_AND_SWAP)) {
      throw emulationRefused(where, bucket, who);
    }
    if (!warned.add(where + "\n" + who)) {
      return;
    }
    StringBuilder risks = new StringBuilder();
    if (needed.contains(StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE)) {
      risks.append(" two writers creating one key at the same moment both succeed and the later silently replaces"
          + " the earlier;");
    }
    if (risks.length() > 0) {
      LOG.warn("Conditional writes are EMULATED on {} ({}=emulate), so for {}:{} safe only while one writer at a"
          + " time uses each key (see docs/stores.md)", where, StoreConstants.CONDITIONAL_WRITES, who, risks);
    }
  }

  /**
   * With {@code detect} on Amazon S3: no check, and one INFO line per store saying so and why (the endpoint form),
   * the first time a component or conditional write relies on a guarantee.
   *
   * @return whether the line was logged now (the first time for this store)
   */
  boolean trustAmazonS3(String where, AmazonS3Endpoint endpoint) {
    if (!trusted.add(where)) {
      return false;
    }
    LOG.info(trustMessage(where, endpoint));
    return true;
  }

  /** The INFO line of a store trusted as Amazon S3: the store, the endpoint form and why, how to check it. */
  static String trustMessage(String where, AmazonS3Endpoint endpoint) {
    return "Store guarantees of " + where + " trusted without a check: the store is Amazon S3, reached through "
        + endpoint.reason() + ", which documents conditional writes on PutObject and CompleteMultipartUpload"
        + " (docs/stores.md); set " + StoreConstants.CONDITIONAL_WRITES + "=check to check it all the same";
  }

  /** With {@code emulate}: the warning of a store whose capabilities are asked for, once per store. */
  void warnEmulated(String where) {
    if (warned.add(where)) {
      LOG.warn("Conditional writes are EMULATED on {} ({}=emulate): HEAD then PUT, safe only with one writer"
          + " per key", where, StoreConstants.CONDITIONAL_WRITES);
    }
  }

  static EmulationRefusedException emulationRefused(String where, String bucket, String who) {
    String msg = StoreConstants.CONDITIONAL_WRITES + "=emulate cannot keep " + who + " safe on " + where + ": it"
        + " relies on " + StoreGuarantee.ATOMIC_COMPARE_AND_SWAP + " (" + StoreGuarantee.ATOMIC_COMPARE_AND_SWAP
        .description() + "), its writers race on one object in normal operation, and a HEAD before each write"
        + " would let two of them succeed and lose an update. Use a store that passes the check with "
        + StoreConstants.CONDITIONAL_WRITES + "=detect (the default; docs/stores.md lists stores), or set it to"
        + " assume only for a store you have verified yourself.";
    LOG.error(msg);
    return new EmulationRefusedException(bucket == null ? where : "s3://" + bucket + "/", msg, who);
  }

  static StoreGuaranteeException refusal(String where, String bucket, String who,
      Map<StoreGuarantee, String> failed) {
    String what = failed.entrySet().stream().map(e -> e.getKey() + " (" + e.getKey().description() + "): "
        + e.getValue()).collect(Collectors.joining("; "));
    boolean onlyHeaders = failed.keySet().stream().noneMatch(StoreGuarantees::isAtomicity);
    String msg = "The store at " + where + " fails " + (failed.size() == 1 ? "a guarantee" : "guarantees") + " that "
        + who + " relies on: " + what + ". Writing there could lose or duplicate data with concurrent writers."
        + " Use a store that gives it (AWS S3 does; see docs/stores.md for others), or, if you are sure that no two"
        + " writers ever race on one key, set " + StoreConstants.CONDITIONAL_WRITES + "=assume to skip the check"
        + (onlyHeaders ? " or " + StoreConstants.CONDITIONAL_WRITES + "=emulate (a HEAD before each conditional"
            + " write, safe only with one writer at a time per key)" : "")
        + " (see docs/stores.md for what is then at risk).";
    LOG.error(msg);
    return new StoreGuaranteeException(where, bucket, msg, failed);
  }

  /** Whether {@code g} is about racing writers (cannot be emulated with a HEAD before the write). */
  static boolean isAtomicity(StoreGuarantee g) {
    return g == StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE || g == StoreGuarantee.ATOMIC_COMPARE_AND_SWAP;
  }
}
