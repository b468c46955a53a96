package io.objectcommit.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.audit.AuditContext;
import io.objectcommit.store.guarantee.GuaranteeSettings;
import io.objectcommit.store.guarantee.ProbeSite;
import io.objectcommit.store.guarantee.StoreCheck;
import io.objectcommit.store.guarantee.StoreGuarantee;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryStoreFactory;
import java.net.URI;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * A context owns its clients: its stores of equal settings share one, other contexts (and the JVM's, which
 * {@link ObjectStores#open} uses) are not touched, and the last store closed shuts the client down. A store factory
 * named in the configuration replaces the S3 store for every caller of {@link ObjectStores#open}. No network:
 * clients are built, never used.
 */
class StoreContextTest {

  private static Configuration conf() {
    Configuration conf = StoreConfigTest.offline(new Configuration(false));
    conf.set("fs.objectcommit.conditional-writes", "assume");
    return conf;
  }

  @Test
  void aContextsStoresShareItsClientsAndNoOneElses() throws Exception {
    StoreContext jvm = StoreContext.jvm();
    long jvmBuilt = jvm.clientsBuilt();
    int jvmLeases = jvm.leasesHeld();
    StoreContext a = new StoreContext();
    StoreContext b = new StoreContext();
    try (ObjectStore a1 = a.open("ctx-bucket", conf());
        ObjectStore a2 = a.open("ctx-bucket", conf());
        ObjectStore b1 = b.open("ctx-bucket", conf())) {
      assertEquals(1, a.clientsBuilt(), "equal settings: one client");
      assertEquals(2, a.leasesHeld());
      assertEquals(1, b.clientsBuilt(), "another context builds its own");
      assertEquals(1, b.leasesHeld());
      assertEquals(jvmBuilt, jvm.clientsBuilt(), "the JVM's context is not used");
      assertEquals(jvmLeases, jvm.leasesHeld());
    }
    assertEquals(0, a.leasesHeld());
    assertEquals(0, a.clientsAlive(), "the last store closed shut the client down");
    assertEquals(0, b.clientsAlive());
  }

  @Test
  void objectStoresOpensInTheJvmsContext() throws Exception {
    StoreContext jvm = StoreContext.jvm();
    int leases = jvm.leasesHeld();
    try (ObjectStore store = ObjectStores.open("ctx-jvm-bucket", conf())) {
      assertEquals(leases + 1, jvm.leasesHeld());
      assertEquals("ctx-jvm-bucket", store.bucket());
    }
    assertEquals(leases, jvm.leasesHeld());
    assertSame(jvm, StoreContext.jvm());
  }

  @Test
  void aFactoryInTheConfigurationOpensEveryStoreAndTheS3SettingsAreNotRead() throws Exception {
    InMemoryObjectStore bucket = InMemoryObjectStore.register("ctx-factory-bucket");
    Configuration conf = InMemoryStoreFactory.use(new Configuration(false));
    conf.set("fs.s3a.endpoint", "ftp://not-read-with-a-factory");
    try (ObjectStore viaObjectStores = ObjectStores.open("ctx-factory-bucket", conf);
        ObjectStore viaContext = new StoreContext().open("ctx-factory-bucket", conf)) {
      assertTrue(viaObjectStores instanceof InMemoryObjectStore, viaObjectStores.toString());
      viaObjectStores.createExclusive("k", Payload.of(new byte[] {7}));
      assertTrue(bucket.exists("k"), "written to the test's bucket");
      assertTrue(viaContext.head("k").isPresent(), "every store of the bucket sees it");
    }
  }

  @Test
  void theFactoryCanBeSetForOneBucket() throws Exception {
    InMemoryObjectStore.register("ctx-fake-bucket");
    Configuration conf = conf();
    conf.set("fs.objectcommit.bucket.ctx-fake-bucket.store.factory", InMemoryStoreFactory.class.getName());
    StoreContext context = new StoreContext();
    try (ObjectStore fake = context.open("ctx-fake-bucket", conf);
        ObjectStore real = context.open("ctx-real-bucket", conf)) {
      assertTrue(fake instanceof InMemoryObjectStore, fake.toString());
      assertFalse(real instanceof InMemoryObjectStore, real.toString());
      assertEquals(1, context.leasesHeld(), "only the S3 store holds a client");
    }
  }

  @Test
  void aStoreConfiguredForAmazonS3IsTrustedWithoutARequestAndAnyOtherIsNot() throws Exception {
    Configuration conf = StoreConfigTest.offline(new Configuration(false));
    conf.set("fs.s3a.bucket.aws-bucket.endpoint", "https://s3.eu-west-1.amazonaws.com");
    conf.set("fs.s3a.bucket.aws-bucket.endpoint.region", "eu-west-1");
    conf.set("fs.s3a.bucket.checked-bucket.endpoint", "https://s3.eu-west-1.amazonaws.com");
    conf.set("fs.objectcommit.bucket.checked-bucket.conditional-writes", "check");
    assertTrue(StoreConfig.from(conf, "aws-bucket").amazonS3().isAmazonS3());
    assertFalse(StoreConfig.from(conf, "other-bucket").amazonS3().isAmazonS3(), "http://127.0.0.1:1");
    assertEquals(GuaranteeSettings.Mode.CHECK, StoreConfig.from(conf, "checked-bucket").guarantees().mode());
    try (ObjectStore store = new StoreContext().open("aws-bucket", conf)) {
      store.requireGuarantees(StoreGuarantee.ofWrites(), "a component", ProbeSite.under("team-a/"));
      assertEquals(StoreCapabilities.ConditionalWrites.DOCUMENTED, store.capabilities().conditionalWrites());
      assertEquals(0, store.statistics().snapshot().totalRequests(), "trusted from the configuration alone");
    }
  }

  @Test
  void theStoreCheckRunsWhateverTheModeUnderThePathGivenUnlessTheProbePrefixIsSet() throws Exception {
    InMemoryObjectStore bucket = InMemoryObjectStore.register("ctx-check-bucket");
    Configuration conf = InMemoryStoreFactory.use(new Configuration(false));
    conf.set(StoreConstants.CONDITIONAL_WRITES, "assume");
    StoreCheck check = ObjectStores.checkGuarantees(URI.create("s3a://ctx-check-bucket/team-a/t"), conf,
        AuditContext.of(AuditContext.CLI), "objectcommit store check s3a://ctx-check-bucket/team-a/t", true);
    assertTrue(check.allHold(), check.toString());
    assertEquals(StoreGuarantee.ofWrites(), check.report().held(), "assume does not skip it");
    assertEquals("team-a/t/", check.probePrefix());
    assertTrue(check.report().where().startsWith("s3://ctx-check-bucket/team-a/t/check-"), check.toString());
    assertTrue(check.amazonS3().isEmpty(), "a factory's store: not known");
    assertEquals(List.of(), bucket.keys(""), "the check deletes what it wrote");

    conf.set("fs.objectcommit.bucket.ctx-check-bucket.probe.prefix", "probes");
    StoreCheck elsewhere = new StoreContext().checkGuarantees("ctx-check-bucket", "team-a/", conf,
        AuditContext.of(AuditContext.CLI), "check", true);
    assertEquals("probes/", elsewhere.probePrefix(), "fs.objectcommit.probe.prefix wins");
  }

  @Test
  void aBadFactoryFailsNamingTheKeyInForce() {
    Configuration conf = new Configuration(false);
    conf.set(StoreConstants.STORE_FACTORY, "io.objectcommit.NoSuchFactory");
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> new StoreContext().open("b", conf));
    assertTrue(missing.getMessage().contains("'io.objectcommit.NoSuchFactory' of fs.objectcommit.store.factory"),
        missing.getMessage());
    conf.set("fs.objectcommit.bucket.b.store.factory", String.class.getName());
    IllegalArgumentException notOne = assertThrows(IllegalArgumentException.class,
        () -> new StoreContext().open("b", conf));
    assertTrue(notOne.getMessage().contains("fs.objectcommit.bucket.b.store.factory")
        && notOne.getMessage().contains(ObjectStoreFactory.class.getName()), notOne.getMessage());
  }
}
