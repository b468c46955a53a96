package io.objectcommit.checkpoint.impl;

import io.objectcommit.store.CleanUp;
import io.objectcommit.store.ObjectStore;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Objects of the S3 backend that nothing refers to any more: deleted at once, else left to gc. Deleted even on an
 * interrupted thread ({@link CleanUp}): Spark interrupts the tasks it cancels and the query it stops, and the object
 * is garbage whether or not the thread goes on.
 */
final class Garbage {

  private static final Logger LOG = LoggerFactory.getLogger(Garbage.class);

  private Garbage() {
  }

  /**
   * Deletes one unreferenced object. A failure is logged, never hidden and never thrown: the change that made the
   * object garbage has happened, and the checkpoint tool's gc removes what is left.
   *
   * @param what what the object was, for the message
   */
  static void delete(ObjectStore store, String key, String what) {
    try {
      CleanUp.run(() -> store.delete(key));
    } catch (IOException e) {
      LOG.warn("Could not delete {} ({}); the checkpoint tool's gc removes it: {}", store.pathOf(key), what,
          e.toString());
      LOG.debug("delete failure", e);
    }
  }

  /** {@link #delete} of many objects, in bulk requests. */
  static void deleteAll(ObjectStore store, List<String> keys, String what) {
    if (keys.isEmpty()) {
      return;
    }
    try {
      CleanUp.run(() -> store.deleteBatch(keys));
    } catch (IOException e) {
      LOG.warn("Could not delete all {} objects of {}; the checkpoint tool's gc removes them: {}", keys.size(), what,
          e.toString());
      LOG.debug("delete failure", e);
    }
  }
}
