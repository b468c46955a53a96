package io.objectcommit.store.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.config.ConfigReader;
import io.objectcommit.store.spark.SparkRuntime;
import io.objectcommit.store.spark.SparkStandIns;
import io.objectcommit.store.testing.InMemoryObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One check per application: a driver's verdict written into the job's configuration and the SparkContext's, an
 * executor of the same application taking it without a request, and everything it must not take (another
 * application's, another endpoint's, a value that is not a verdict, a pass over its own failure), on in-memory
 * buckets and Spark stand-ins. Each "JVM" is a verdict cache of its own, as each JVM has its own context.
 */
class VerdictHandoffTest {

  private static final String PREFIX = ".objectcommit/probe/";
  private static final String WHERE = "bucket 'b' at endpoint http://10.0.0.5:9000 (region us-east-1)";
  private static final String APP = "app-20261125101010-0003";
  private static final Set<StoreGuarantee> STAGING = EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT,
      StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE, StoreGuarantee.ABORT_KEEPS_EXISTING);
  private static final Set<StoreGuarantee> CKPT = EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT,
      StoreGuarantee.IF_MATCH_PUT, StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE, StoreGuarantee.ATOMIC_COMPARE_AND_SWAP);

  @TempDir
  static Path dir;
  private static SparkStandIns spark;

  @BeforeAll
  static void standIns() throws Exception {
    spark = SparkStandIns.compile(dir);
  }

  /** As moto 5.2.5: ignores If-Match on CompleteMultipartUpload. */
  private static ObjectStore moto(ObjectStore inner) {
    return new BrokenStore(inner) {
      @Override
      public ObjectInfo completeMultipartUpload(MultipartUpload u, List<UploadedPart> p, WriteCondition c)
          throws IOException {
        return super.completeMultipartUpload(u, p, c.kind() == WriteCondition.Kind.IF_MATCH ? WriteCondition.none()
            : c);
      }
    };
  }

  /** One JVM's store of {@code bucket}, opened with {@code conf}, as the store context opens it. */
  private static ObjectStore open(InMemoryObjectStore bucket, boolean brokenLikeMoto, StoreGuarantees jvm,
      Configuration conf, SparkRuntime runtime) {
    Configuration c = new Configuration(false);
    GuardedObjectStore guarded = new GuardedObjectStore(wrap(bucket.newStore(c), brokenLikeMoto),
        GuaranteeSettings.from(new ConfigReader(conf, "b")), jvm, WHERE, 5L << 20,
        () -> wrap(bucket.newStore(c), brokenLikeMoto));
    return VerdictHandoff.around(guarded, GuaranteeSettings.from(new ConfigReader(conf, "b")),
        VerdictSharing.from(new ConfigReader(conf, "b"), WHERE), jvm, WHERE, conf, runtime);
  }

  private static ObjectStore wrap(ObjectStore s, boolean brokenLikeMoto) {
    return brokenLikeMoto ? moto(s) : s;
  }

  private static Configuration jobConf() {
    return new Configuration(false);
  }

  private static String key() {
    return SharedVerdict.key("b", WHERE);
  }

  @Test
  void theDriversVerdictReachesItsExecutorsWhichSendNoRequest() throws Exception {
    InMemoryObjectStore bucket = InMemoryObjectStore.create("b");
    Configuration sparkContextConf = new Configuration(false);
    spark.environment(APP, "driver");
    spark.activeContext(sparkContextConf);
    Configuration job = jobConf();
    try (ObjectStore driver = open(bucket, false, new StoreGuarantees(), job, spark.runtime())) {
      driver.requireGuarantees(STAGING, "the staging committer");
    }
    long driverChecked = bucket.counts().total();
    assertTrue(driverChecked > 0, "the driver checked");
    SharedVerdict handed = SharedVerdict.decode(job.get(key()));
    assertEquals(APP, handed.application());
    assertEquals(WHERE, handed.where());
    assertEquals(STAGING, handed.held());
    assertEquals(job.get(key()), sparkContextConf.get(key()), "and into the SparkContext's configuration");

    // an executor of the application: the job configuration as its tasks receive it
    spark.environment(APP, "1");
    spark.activeContext(null);
    Configuration task = new Configuration(job);
    StoreGuarantees executor = new StoreGuarantees();
    try (ObjectStore store = open(bucket, false, executor, task, spark.runtime())) {
      store.requireGuarantees(STAGING, "the staging committer");
      assertEquals(driverChecked, bucket.counts().total(), "no request on the executor");
      // what the driver did not check, the executor checks itself: only that
      store.requireGuarantees(CKPT, "checkpoint-fs (ckpt://)");
    }
    assertTrue(bucket.counts().total() > driverChecked, "the compare-and-swap guarantees were checked here");
    assertEquals(Set.of(StoreGuarantee.IF_MATCH_PUT, StoreGuarantee.ATOMIC_COMPARE_AND_SWAP),
        checkedHereOnly(executor, handed), "only what the driver had not checked");
    assertEquals(job.get(key()), task.get(key()), "an executor does not hand verdicts on");
  }

  private static Set<StoreGuarantee> checkedHereOnly(StoreGuarantees jvm, SharedVerdict fromDriver) {
    Set<StoreGuarantee> s = EnumSet.copyOf(jvm.snapshot(WHERE, APP).orElseThrow().checked());
    s.removeAll(fromDriver.checked());
    return s;
  }

  @Test
  void aRefusalTravelsAndTheExecutorRefusesWithoutARequest() throws Exception {
    InMemoryObjectStore bucket = InMemoryObjectStore.create("b");
    spark.environment(APP, "driver");
    spark.activeContext(new Configuration(false));
    Configuration job = jobConf();
    Set<StoreGuarantee> needs = EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT, StoreGuarantee.IF_MATCH_COMPLETE);
    try (ObjectStore driver = open(bucket, true, new StoreGuarantees(), job, spark.runtime())) {
      assertThrows(StoreGuaranteeException.class, () -> driver.requireGuarantees(needs, "component B"));
    }
    assertEquals(Set.of(StoreGuarantee.IF_MATCH_COMPLETE), SharedVerdict.decode(job.get(key())).failed().keySet(),
        "the refusal is handed on too");
    long checked = bucket.counts().total();

    spark.environment(APP, "2");
    spark.activeContext(null);
    try (ObjectStore store = open(bucket, true, new StoreGuarantees(), new Configuration(job), spark.runtime())) {
      StoreGuaranteeException e = assertThrows(StoreGuaranteeException.class,
          () -> store.requireGuarantees(needs, "component B"));
      assertEquals(Set.of(StoreGuarantee.IF_MATCH_COMPLETE), e.failedGuarantees());
      assertTrue(e.getMessage().contains("checked by the driver of Spark application " + APP), e.getMessage());
    }
    assertEquals(checked, bucket.counts().total(), "refused without a request");
  }

  @Test
  void anotherApplicationsVerdictIsNotTaken() throws Exception {
    InMemoryObjectStore bucket = InMemoryObjectStore.create("b");
    Configuration copied = jobConf();
    copied.set(key(), new SharedVerdict("app-of-yesterday", WHERE, STAGING, Map.of()).encode());
    spark.environment(APP, "1");
    spark.activeContext(null);
    try (ObjectStore store = open(bucket, false, new StoreGuarantees(), copied, spark.runtime())) {
      store.requireGuarantees(STAGING, "the staging committer");
    }
    assertTrue(bucket.counts().total() > 0, "checked: the verdict was another application's");
  }

  @Test
  void aVerdictOfAnotherEndpointIsNeverTaken() throws Exception {
    InMemoryObjectStore bucket = InMemoryObjectStore.create("b");
    spark.environment(APP, "1");
    spark.activeContext(null);
    String otherEndpoint = WHERE.replace("10.0.0.5", "10.0.0.9");
    // under its own key: not even read for this endpoint
    Configuration conf = jobConf();
    conf.set(SharedVerdict.key("b", otherEndpoint), new SharedVerdict(APP, otherEndpoint, STAGING, Map.of()).encode());
    // a value naming another endpoint under this endpoint's key (copied by hand): compared and refused
    conf.set(key(), new SharedVerdict(APP, otherEndpoint, STAGING, Map.of()).encode());
    try (ObjectStore store = open(bucket, false, new StoreGuarantees(), conf, spark.runtime())) {
      store.requireGuarantees(STAGING, "the staging committer");
    }
    assertTrue(bucket.counts().total() > 0, "checked: no verdict of this endpoint");
  }

  @Test
  void aPassNeverReplacesAFailureFoundHere() throws Exception {
    InMemoryObjectStore bucket = InMemoryObjectStore.create("b");
    spark.environment(APP, "1");
    spark.activeContext(null);
    StoreGuarantees executor = new StoreGuarantees();
    Set<StoreGuarantee> needs = EnumSet.of(StoreGuarantee.IF_MATCH_COMPLETE);
    try (ObjectStore store = open(bucket, true, executor, jobConf(), spark.runtime())) {
      assertThrows(StoreGuaranteeException.class, () -> store.requireGuarantees(needs, "component B"));
    }
    Configuration claimsHeld = jobConf();
    claimsHeld.set(key(), new SharedVerdict(APP, WHERE, needs, Map.of()).encode());
    try (ObjectStore store = open(bucket, true, executor, claimsHeld, spark.runtime())) {
      assertThrows(StoreGuaranteeException.class, () -> store.requireGuarantees(needs, "component B"),
          "what this JVM found itself wins");
    }
  }

  @Test
  void aValueThatIsNotAVerdictIsIgnoredAndTheJvmChecks() throws Exception {
    InMemoryObjectStore bucket = InMemoryObjectStore.create("b");
    spark.environment(APP, "1");
    spark.activeContext(null);
    Configuration conf = jobConf();
    conf.set(key(), "held=everything");
    try (ObjectStore store = open(bucket, false, new StoreGuarantees(), conf, spark.runtime())) {
      store.requireGuarantees(STAGING, "the staging committer");
    }
    assertTrue(bucket.counts().total() > 0);
  }

  @Test
  void sharingOffOrAnotherModeOrNoSparkHandsNothingOn() throws Exception {
    spark.environment(APP, "driver");
    spark.activeContext(new Configuration(false));
    Configuration off = jobConf();
    off.setBoolean(StoreConstants.SHARE_VERDICT, false);
    try (ObjectStore store = open(InMemoryObjectStore.create("b"), false, new StoreGuarantees(), off,
        spark.runtime())) {
      store.requireGuarantees(STAGING, "the staging committer");
    }
    assertNull(off.get(key()));

    Configuration assume = jobConf();
    assume.set(StoreConstants.CONDITIONAL_WRITES, "assume");
    ObjectStore guarded = new GuardedObjectStore(InMemoryObjectStore.create("b"), GuaranteeSettings.from(
        new ConfigReader(assume, "b")), new StoreGuarantees(), WHERE, 5L << 20, () -> {
          throw new AssertionError("no check with assume");
        });
    assertSame(guarded, VerdictHandoff.around(guarded, GuaranteeSettings.from(new ConfigReader(assume, "b")),
        VerdictSharing.from(new ConfigReader(assume, "b"), WHERE), new StoreGuarantees(), WHERE, assume,
        spark.runtime()));

    Configuration noSpark = jobConf();
    try (ObjectStore store = open(InMemoryObjectStore.create("b"), false, new StoreGuarantees(), noSpark,
        SparkStandIns.absent())) {
      store.requireGuarantees(STAGING, "the staging committer");
    }
    assertNull(noSpark.get(key()), "outside Spark nobody ships the configuration");
  }

  @Test
  void aBadSharingValueFailsNamingTheKey() {
    Configuration conf = jobConf();
    conf.set("fs.objectcommit.bucket.b.conditional-writes.share-verdict", "maybe");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> VerdictSharing.from(new ConfigReader(conf, "b"), WHERE));
    assertTrue(e.getMessage().contains("fs.objectcommit.bucket.b.conditional-writes.share-verdict"), e.getMessage());
  }
}
