package io.objectcommit.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * A context owns its clients: its stores of equal settings share one, other contexts (and the JVM's, which
 * {@link ObjectStores#open} uses) are not touched, and the last store closed shuts the client down. No network:
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
}
