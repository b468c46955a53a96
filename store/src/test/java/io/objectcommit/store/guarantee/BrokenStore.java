package io.objectcommit.store.guarantee;

import io.objectcommit.store.ForwardingObjectStore;
import io.objectcommit.store.ObjectStore;

/** Delegates everything; subclasses break one behaviour. Closing it does not close the inner store. */
class BrokenStore extends ForwardingObjectStore {

  BrokenStore(ObjectStore inner) {
    super(inner);
  }

  @Override
  public void close() {
  }
}
