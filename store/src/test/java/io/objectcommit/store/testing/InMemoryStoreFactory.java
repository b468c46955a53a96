package io.objectcommit.store.testing;

import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.ObjectStoreFactory;
import io.objectcommit.store.StoreConstants;
import java.io.FileNotFoundException;
import org.apache.hadoop.conf.Configuration;

/**
 * The store factory of the unit tests of every module: named in {@value StoreConstants#STORE_FACTORY}, it makes
 * {@code ObjectStores.open} return stores on the in-memory buckets the test {@link InMemoryObjectStore#register
 * registered}, so that a component under test (checkpoint-fs, either committer) gets its store exactly as it does
 * in production, from the same call.
 */
public final class InMemoryStoreFactory implements ObjectStoreFactory {

  /** {@code conf}, set to open every store through this factory (what a test's configuration needs). */
  public static Configuration use(Configuration conf) {
    conf.set(StoreConstants.STORE_FACTORY, InMemoryStoreFactory.class.getName());
    return conf;
  }

  /** @throws FileNotFoundException if the test registered no bucket of that name */
  @Override
  public ObjectStore open(String bucket, Configuration conf) throws FileNotFoundException {
    return InMemoryObjectStore.open(bucket, conf);
  }
}
