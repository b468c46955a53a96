package io.objectcommit.it;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * After each test class of the Spark ITs, Spark's JVM-wide state store providers are unloaded and their maintenance
 * stopped ({@link SparkStateStores}), as Spark's own suites do: otherwise the maintenance of every earlier class's
 * stopped queries keeps running in the shared failsafe JVM, against endpoints that may be gone, and later sessions
 * wait for it when they stop. Registered for every class of this test jar (META-INF/services, with Failsafe's
 * {@code junit.jupiter.extensions.autodetection.enabled}).
 */
public final class StateStoresReset implements AfterAllCallback {

  @Override
  public void afterAll(ExtensionContext context) {
    SparkStateStores.stopIfNoSparkRuns();
  }
}
