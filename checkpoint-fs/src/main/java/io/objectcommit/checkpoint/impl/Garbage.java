package io.objectcommit.checkpoint.impl;

import io.objectcommit.store.ObjectStore;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Objects of the S3 backend that nothing refers to any more: deleted at once, else left to gc. */
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
      store.delete(key);
    } catch (IOException e) {
      LOG.warn("Could not delete {} ({}); the checkpoint tool's gc removes it: {}", store.pathOf(key), what,
          e.toString());
      LOG.debug("delete failure", e);
    }
  }
}
