package io.objectcommit.store.it;

import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.ObjectStores;
import io.objectcommit.store.StoreConstants;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;

/**
 * The SDK binding an integration test runs on: each IT of this package is written once (an abstract class) and
 * run once per binding by two one-line subclasses ({@code ...V1IT}, {@code ...V2IT}), so that the failsafe
 * report counts the tests per binding. Both SDKs are on the store module's test classpath: the binding is forced with
 * {@value StoreConstants#SDK}, exactly as a user would.
 */
enum Sdk {
  V1, V2;

  /** The value of {@value StoreConstants#SDK}. */
  String value() {
    return this == V1 ? "v1" : "v2";
  }

  /** {@code conf}, forced to this binding. */
  Configuration on(Configuration conf) {
    conf.set(StoreConstants.SDK, value());
    return conf;
  }

  /** A store of {@code bucket} on this binding. */
  ObjectStore open(String bucket, Configuration conf) throws IOException {
    return ObjectStores.open(bucket, on(conf));
  }
}
