package io.objectcommit.direct.impl;

import io.objectcommit.direct.DirectCommitterConstants;
import io.objectcommit.direct.DirectCommitterOptions;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.ObjectStores;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;

/**
 * Opens the object store of a bucket. The default is {@link ObjectStores#open(String, Configuration)}; tests and
 * wrappers name another implementation (public, no-argument constructor) in
 * {@link DirectCommitterConstants#STORE_FACTORY}.
 */
public interface StoreFactory {

  ObjectStore open(String bucket, Configuration conf) throws IOException;

  /** The factory the options name. */
  static StoreFactory from(DirectCommitterOptions options) {
    if (options.storeFactory().isEmpty()) {
      return ObjectStores::open;
    }
    try {
      return (StoreFactory) Class.forName(options.storeFactory(), true, StoreFactory.class.getClassLoader())
          .getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalArgumentException("Invalid value '" + options.storeFactory() + "' of "
          + DirectCommitterConstants.STORE_FACTORY + ": expected a class implementing " + StoreFactory.class.getName()
          + " with a public no-argument constructor (" + e + ")", e);
    }
  }
}
