package io.objectcommit.direct;

import io.objectcommit.direct.impl.StoreFactory;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.testing.InMemoryObjectStore;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;

/**
 * The {@link StoreFactory} of the unit tests, named in {@link DirectCommitterConstants#STORE_FACTORY}: stores on
 * the in-memory buckets {@link InMemoryObjectStore#register registered} by the test.
 */
public final class InMemoryStoreFactory implements StoreFactory {

  @Override
  public ObjectStore open(String bucket, Configuration conf) throws IOException {
    return InMemoryObjectStore.open(bucket, conf);
  }
}
