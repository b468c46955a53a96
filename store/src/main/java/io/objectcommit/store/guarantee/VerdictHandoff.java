package io.objectcommit.store.guarantee;

import io.objectcommit.store.ForwardingObjectStore;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.spark.SparkRuntime;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One check per Spark application instead of one per JVM: the guarantee check's verdict reached by a driver
 * travels to the executors of the same application in the Hadoop configuration Spark ships to their tasks, and an
 * executor that finds it takes it instead of checking the store again (docs/stores.md, "How the verdict reaches
 * the executors").
 *
 * <ul>
 *   <li><b>On the driver</b> ({@link SparkRuntime#isDriver()}), after each {@link ObjectStore#requireGuarantees}
 *       (a component's up-front check: committer job setup, the checkpoint file system opening its bucket), pass or
 *       refusal, what the context knows of the store is written, as a {@link SharedVerdict} naming the application,
 *       into the configuration the store was opened with (a committer's job configuration, which Spark serialises
 *       into the job's tasks after job setup) and into the active SparkContext's Hadoop configuration, from which
 *       Spark copies the configurations of later work (a streaming query's state store tasks, later jobs).</li>
 *   <li><b>In every JVM</b>, when a store is opened, a verdict carried for its bucket and endpoint is taken only
 *       when it was reached by this JVM's own Spark application (its {@code spark.app.id}) for exactly this store
 *       (the key is a hash of the bucket and endpoint, and the recorded store is compared too), and only for
 *       guarantees this JVM has not checked itself: what it found itself always wins, and a failed guarantee stays
 *       failed. A refusal travels too: the executor then refuses without a request. Anything else (another
 *       application's verdict copied into a configuration, no Spark, an unreadable value) is ignored, and the JVM
 *       checks for itself as before.</li>
 * </ul>
 *
 * Only with {@code conditional-writes=detect} and {@value io.objectcommit.store.StoreConstants#SHARE_VERDICT}
 * on (the default).
 */
public final class VerdictHandoff {

  private static final Logger LOG = LoggerFactory.getLogger(VerdictHandoff.class);

  private VerdictHandoff() {
  }

  /**
   * Takes the verdict {@code sharing} carries when it may be trusted, and returns {@code guarded} decorated so
   * that on a driver its component's up-front checks hand the verdict on through {@code conf}.
   *
   * @param guarded the store inside the guarantee policy
   * @param verdicts the context's verdicts
   * @param where the store's bucket and endpoint (the verdicts' key)
   * @param conf the configuration the store was opened with: where a driver writes the verdict
   */
  public static ObjectStore around(ObjectStore guarded, GuaranteeSettings settings, VerdictSharing sharing,
      StoreGuarantees verdicts, String where, Configuration conf, SparkRuntime spark) {
    if (settings.mode() != GuaranteeSettings.Mode.DETECT || !sharing.enabled()) {
      return guarded;
    }
    receive(sharing, verdicts, where, spark);
    return new Publishing(guarded, sharing, verdicts, where, conf, spark);
  }

  /** Takes a carried verdict that this JVM may trust (see the class comment). */
  static void receive(VerdictSharing sharing, StoreGuarantees verdicts, String where, SparkRuntime spark) {
    sharing.unreadable().ifPresent(why -> LOG.warn("Ignoring the store verdict in {} ({}): {} is checked in this"
        + " JVM instead", sharing.key(), why, where));
    Optional<SharedVerdict> carried = sharing.carried();
    if (carried.isEmpty()) {
      return;
    }
    SharedVerdict v = carried.get();
    Optional<String> app = spark.applicationId();
    if (!v.where().equals(where)) {
      LOG.warn("Ignoring the store verdict in {}: it is of {}, not of {}", sharing.key(), v.where(), where);
      return;
    }
    if (app.isEmpty() || !app.get().equals(v.application())) {
      LOG.info("Ignoring the store verdict of Spark application {} in {}: this JVM runs {}; {} is checked here",
          v.application(), sharing.key(), app.map(a -> "application " + a).orElse("no Spark application"), where);
      return;
    }
    Set<StoreGuarantee> taken = verdicts.adopt(where, v);
    if (!taken.isEmpty()) {
      LOG.info("Store guarantees of {} taken from the driver of application {} (not checked again in this JVM):"
          + " {}", where, v.application(), describe(v, taken));
    }
  }

  private static String describe(SharedVerdict v, Set<StoreGuarantee> taken) {
    List<StoreGuarantee> held = new ArrayList<>();
    List<StoreGuarantee> failed = new ArrayList<>();
    for (StoreGuarantee g : taken) {
      (v.failed().containsKey(g) ? failed : held).add(g);
    }
    return held + " hold" + (failed.isEmpty() ? "" : ", FAILED " + failed);
  }

  /**
   * Writes what the context knows of the store into the configurations that reach the application's tasks, unless
   * {@code last} (what this store wrote last) is the same.
   *
   * @return what was written (or {@code last})
   */
  static String publish(VerdictSharing sharing, StoreGuarantees verdicts, String where, Configuration conf,
      SparkRuntime spark, String last) {
    if (!spark.isDriver()) {
      return last;
    }
    Optional<String> app = spark.applicationId();
    if (app.isEmpty()) {
      return last;
    }
    Optional<SharedVerdict> known = verdicts.snapshot(where, app.get());
    if (known.isEmpty()) {
      return last;
    }
    String value = known.get().encode();
    if (value.equals(last)) {
      return last;
    }
    if (conf != null) {
      conf.set(sharing.key(), value);
    }
    Optional<Configuration> driver = spark.driverHadoopConfiguration();
    if (driver.isPresent() && driver.get() != conf) {
      driver.get().set(sharing.key(), value);
    }
    LOG.debug("Store verdict handed on to the executors of {} in {}: {}", app.get(), sharing.key(), known.get());
    return value;
  }

  /** The store whose up-front checks hand the verdict on. */
  private static final class Publishing extends ForwardingObjectStore {
    private final VerdictSharing sharing;
    private final StoreGuarantees verdicts;
    private final String where;
    private final Configuration conf;
    private final SparkRuntime spark;
    /** The value this store wrote last: written again only when the verdict changed (no read of {@code conf}). */
    private String published;

    Publishing(ObjectStore guarded, VerdictSharing sharing, StoreGuarantees verdicts, String where,
        Configuration conf, SparkRuntime spark) {
      super(guarded);
      this.sharing = sharing;
      this.verdicts = verdicts;
      this.where = where;
      this.conf = conf;
      this.spark = spark;
    }

    @Override
    public void requireGuarantees(Set<StoreGuarantee> needed, String component) throws IOException {
      try {
        super.requireGuarantees(needed, component);
      } finally {
        handOn();
      }
    }

    @Override
    public void requireGuarantees(Set<StoreGuarantee> needed, String component, ProbeSite site) throws IOException {
      try {
        super.requireGuarantees(needed, component, site);
      } finally {
        handOn();
      }
    }

    /** After a check, passed or refused: the verdict as it now stands, into the configuration Spark ships. */
    private void handOn() {
      try {
        synchronized (this) {
          published = publish(sharing, verdicts, where, conf, spark, published);
        }
      } catch (RuntimeException e) {
        // handing the verdict on only spares the executors a check: never a reason to fail the component
        LOG.warn("Could not hand the store verdict of {} on to the executors: {}", where, e.toString());
      }
    }

    @Override
    public String toString() {
      return delegate().toString();
    }
  }
}
