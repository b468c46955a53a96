package io.objectcommit.store.guarantee;

import io.objectcommit.store.ForwardingObjectStore;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.WriteCondition;
import java.io.IOException;
import java.util.Optional;

/** Delegates everything; subclasses break one behaviour. Closing it does not close the inner store. */
class BrokenStore extends ForwardingObjectStore {

  BrokenStore(ObjectStore inner) {
    super(inner);
  }

  /**
   * Whether conditional write {@code c} of {@code key} would pass now, from a HEAD of {@code store}: the check of a
   * store that checks first and writes later, which racing writers can all pass.
   */
  static boolean passesNow(ObjectStore store, String key, WriteCondition c) throws IOException {
    Optional<ObjectInfo> now = store.head(key);
    return c.kind() == WriteCondition.Kind.IF_ABSENT ? now.isEmpty()
        : now.isPresent() && now.get().etag().equals(c.etag());
  }

  @Override
  public void close() {
  }
}
