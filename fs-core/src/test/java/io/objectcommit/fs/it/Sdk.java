package io.objectcommit.fs.it;

import io.objectcommit.fs.FsCoreConstants;
import io.objectcommit.fs.ObjectStore;
import io.objectcommit.fs.ObjectStores;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;

/**
 * The SDK binding an integration test runs on: each IT of this package is written once (an abstract class) and
 * run once per binding by two one-line subclasses ({@code ...V1IT}, {@code ...V2IT}), so that the failsafe
 * report counts the tests per binding. Both SDKs are on fs-core's test classpath: the binding is forced with
 * {@value FsCoreConstants#SDK}, exactly as a user would.
 */
enum Sdk {
  V1, V2;

  /** The value of {@value FsCoreConstants#SDK}. */
  String value() {
    return this == V1 ? "v1" : "v2";
  }

  /** {@code conf}, forced to this binding. */
  Configuration on(Configuration conf) {
    conf.set(FsCoreConstants.SDK, value());
    return conf;
  }

  /** A store of {@code bucket} on this binding. */
  ObjectStore open(String bucket, Configuration conf) throws IOException {
    return ObjectStores.open(bucket, on(conf));
  }
}
