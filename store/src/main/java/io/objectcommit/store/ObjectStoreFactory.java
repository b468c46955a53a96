package io.objectcommit.store;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;

/**
 * Opens the stores of buckets in place of the S3 store, when named in {@value StoreConstants#STORE_FACTORY}: the
 * one way to give every component another store (tests: the in-memory store; wrappers), since every component gets
 * its store from {@link ObjectStores#open}. Implementations are public, with a public no-argument constructor, and
 * thread-safe; a {@link StoreContext} makes one instance per class. The stores they return are used as they are:
 * no guarantee policy is put around them, so a store answers {@link ObjectStore#requireGuarantees} for itself.
 */
@FunctionalInterface
public interface ObjectStoreFactory {

  /** A store of {@code bucket}; {@code conf} is the configuration the component was given. */
  ObjectStore open(String bucket, Configuration conf) throws IOException;
}
