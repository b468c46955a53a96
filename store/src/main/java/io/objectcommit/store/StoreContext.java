package io.objectcommit.store;

import io.objectcommit.store.audit.AuditContext;
import io.objectcommit.store.audit.RequestAttribution;
import io.objectcommit.store.config.ConfigReader;
import io.objectcommit.store.guarantee.GuaranteeSettings;
import io.objectcommit.store.guarantee.GuardedObjectStore;
import io.objectcommit.store.guarantee.StoreCheck;
import io.objectcommit.store.guarantee.StoreGuarantees;
import io.objectcommit.store.guarantee.VerdictHandoff;
import io.objectcommit.store.impl.S3Calls;
import io.objectcommit.store.impl.S3ObjectStore;
import io.objectcommit.store.impl.client.S3ClientCache;
import io.objectcommit.store.spark.SparkRuntime;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;

/**
 * What the stores opened through one context share: the S3 clients (one per effective settings and SDK, reference
 * counted, {@link S3ClientCache}), the guarantee check's verdicts per bucket and endpoint
 * ({@link StoreGuarantees}), and the store factories named in {@value StoreConstants#STORE_FACTORY} (one instance
 * per class). The store module keeps no other state between stores.
 *
 * <p>{@link #jvm()} is the context of {@link ObjectStores#open}, and its lifetime is the JVM's on purpose: Hadoop
 * creates file systems and Spark creates committers by reflection, per task attempt, with no way to hand them an
 * object, yet the tasks and file systems of one executor must share clients (and so connections) and verdicts (one
 * check of a bucket per JVM, none where the driver's verdict reached it: docs/stores.md). Code that can be handed a context, and every test that wants to start
 * from nothing, creates its own: nothing here is ever reset. Thread-safe.
 */
public final class StoreContext {

  /** The context of {@link ObjectStores#open}: see the class comment for why it lives as long as the JVM. */
  private static final StoreContext JVM = new StoreContext();

  private final S3ClientCache clients = new S3ClientCache();
  private final StoreGuarantees verdicts = new StoreGuarantees();
  private final Map<Class<?>, ObjectStoreFactory> factories = new ConcurrentHashMap<>();

  /** A context of its own: no clients, nothing known of any store. */
  public StoreContext() {
  }

  /** The JVM's context, which {@link ObjectStores#open} uses. */
  public static StoreContext jvm() {
    return JVM;
  }

  /**
   * A store for one bucket, configured from the {@code fs.s3a.*} and {@code fs.objectcommit.*} keys (per-bucket
   * overrides included) through one {@link ConfigReader}: the store of the factory named in
   * {@value StoreConstants#STORE_FACTORY} when one is (the S3 settings are then not read), else the S3 store inside
   * the guarantee policy, its configuration parsed once into a {@link StoreConfig}. An S3 store's client is shared
   * with the other open stores of this context with equal settings; close the store when done. Bad settings fail
   * here, naming the key.
   */
  public ObjectStore open(String bucket, Configuration conf) throws IOException {
    return open(bucket, conf, AuditContext.UNNAMED);
  }

  /**
   * {@link #open(String, Configuration)} for {@code who}: every request of the store names the component, job and
   * task attempt of {@code who} in its attribution header (docs/user-guide.md, "Finding a job's requests").
   */
  public ObjectStore open(String bucket, Configuration conf, AuditContext who) throws IOException {
    if (bucket == null || bucket.isEmpty()) {
      throw new IllegalArgumentException("no bucket given");
    }
    ConfigReader reader = new ConfigReader(conf, bucket);
    String factory = reader.get(StoreConstants.STORE_FACTORY, StoreConstants.STORE_FACTORY_DEFAULT);
    if (!factory.isEmpty()) {
      return factory(reader, factory).open(bucket, conf);
    }
    return open(StoreConfig.from(reader), who, conf);
  }

  /** The context's instance of the factory class {@code name}, made on first use. */
  private ObjectStoreFactory factory(ConfigReader reader, String name) {
    String key = reader.effectiveKey(StoreConstants.STORE_FACTORY);
    Class<?> cls;
    try {
      cls = reader.configuration().getClassByName(name);
    } catch (ClassNotFoundException e) {
      throw badFactory(key, name, e);
    }
    return factories.computeIfAbsent(cls, c -> {
      if (!ObjectStoreFactory.class.isAssignableFrom(c)) {
        throw badFactory(key, name, null);
      }
      try {
        return (ObjectStoreFactory) c.getDeclaredConstructor().newInstance();
      } catch (ReflectiveOperationException | RuntimeException e) {
        throw badFactory(key, name, e);
      }
    });
  }

  private static IllegalArgumentException badFactory(String key, String name, Exception cause) {
    return new IllegalArgumentException("Invalid value '" + name + "' of " + key + ": expected a class implementing "
        + ObjectStoreFactory.class.getName() + " with a public no-argument constructor"
        + (cause == null ? "" : " (" + cause + ")"), cause);
  }

  /**
   * A store built from a parsed configuration (reads nothing more from the Hadoop configuration): the S3 store,
   * which sends conditions as given, inside the guarantee policy, whose check writes through a second S3 store of
   * the same client (its own statistics, so that the check's requests are not counted as the caller's).
   */
  ObjectStore open(StoreConfig config) {
    return open(config, AuditContext.UNNAMED, null);
  }

  /**
   * {@link #open(StoreConfig)} whose requests carry {@code who} in their attribution header (the check's store
   * marks its requests as the guarantee check's), and which takes and hands on the guarantee check's verdict
   * between a Spark driver and its executors ({@link VerdictHandoff}): a driver writes it into {@code target} (the
   * configuration the store was opened with; null: none but the SparkContext's).
   */
  ObjectStore open(StoreConfig config, AuditContext who, Configuration target) {
    S3ClientCache.Lease lease = clients.acquire(config.client(), config.sdk());
    try {
      RequestAttribution attribution = new RequestAttribution(config.audit(), who, SparkRuntime.jvm(),
          config.bucket());
      S3Calls calls = lease.calls(config.bucket(), config.client().encryption(), attribution);
      ObjectStore s3 = new S3ObjectStore(config.bucket(), calls, config.options(), config.where(), lease::close);
      ObjectStore guarded = new GuardedObjectStore(s3, config.guarantees(), verdicts, config.where(),
          config.options().multipartThreshold(), () -> new S3ObjectStore(config.bucket(),
              lease.calls(config.bucket(), config.client().encryption(), attribution.forGuaranteeCheck()),
              config.options(), config.where(), () -> { }), config.amazonS3());
      return VerdictHandoff.around(guarded, config.guarantees(), config.sharing(), verdicts, config.where(), target,
          SparkRuntime.jvm());
    } catch (RuntimeException e) {
      lease.close();
      throw e;
    }
  }

  /**
   * Runs the whole guarantee check of {@code bucket} now ({@link StoreCheck}): every guarantee, through an S3 store
   * of this context's client that sends conditions as given, whatever {@value StoreConstants#CONDITIONAL_WRITES}
   * says (Amazon S3 included) and whatever this context knows of the store (its verdicts are neither read nor
   * changed). The check writes under {@code keyPrefix} unless {@value StoreConstants#PROBE_PREFIX} is set; its
   * requests carry {@code who} in the attribution header, marked as the guarantee check's. A store factory named
   * in {@value StoreConstants#STORE_FACTORY} is checked through its store. Bad settings fail here, naming the key.
   *
   * @param keyPrefix a key prefix, empty or ending with '/'
   * @param operation the user's operation, named when the check cannot run
   * @param stopAtFirstFailure skip the races once a sequential guarantee failed
   * @throws IOException when the check could not run ({@link StoreCheck#run})
   */
  public StoreCheck checkGuarantees(String bucket, String keyPrefix, Configuration conf, AuditContext who,
      String operation, boolean stopAtFirstFailure) throws IOException {
    if (bucket == null || bucket.isEmpty()) {
      throw new IllegalArgumentException("no bucket given");
    }
    ConfigReader reader = new ConfigReader(conf, bucket);
    String factory = reader.get(StoreConstants.STORE_FACTORY, StoreConstants.STORE_FACTORY_DEFAULT);
    if (!factory.isEmpty()) {
      String probePrefix = GuaranteeSettings.from(reader).probePrefix().orElse(keyPrefix);
      try (ObjectStore store = factory(reader, factory).open(bucket, conf)) {
        return StoreCheck.run(store, "s3://" + bucket + "/ (" + factory + ")", null, probePrefix, operation,
            stopAtFirstFailure);
      }
    }
    StoreConfig config = StoreConfig.from(reader);
    String probePrefix = config.guarantees().probePrefix().orElse(keyPrefix);
    S3ClientCache.Lease lease = clients.acquire(config.client(), config.sdk());
    ObjectStore s3;
    try {
      RequestAttribution attribution = new RequestAttribution(config.audit(), who, SparkRuntime.jvm(),
          config.bucket()).forGuaranteeCheck();
      s3 = new S3ObjectStore(config.bucket(), lease.calls(config.bucket(), config.client().encryption(),
          attribution), config.options(), config.where(), lease::close);
    } catch (RuntimeException e) {
      lease.close();
      throw e;
    }
    try (ObjectStore store = s3) {
      return StoreCheck.run(store, config.where(), config.amazonS3(), probePrefix, operation, stopAtFirstFailure);
    }
  }

  /**
   * Leases held now on this context's clients: one per open S3 store (for tests and diagnostics: a store never
   * closed stays counted, and keeps its client and connections alive).
   */
  public int leasesHeld() {
    return clients.leasesHeld();
  }

  /** Clients this context built (for tests and diagnostics). */
  public long clientsBuilt() {
    return clients.clientsBuilt();
  }

  /** Clients of this context alive now (for tests and diagnostics). */
  public int clientsAlive() {
    return clients.size();
  }

  @Override
  public String toString() {
    return "StoreContext{" + (this == JVM ? "the JVM's, " : "") + clients.size() + " clients, "
        + clients.leasesHeld() + " leases}";
  }
}
