package io.objectcommit.direct.impl;

import io.objectcommit.direct.files.AttemptEntry;
import io.objectcommit.direct.files.FileGroup;
import io.objectcommit.store.ObjectStore;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the keys an attempt may have written without LIST: its known files, plus, for each declared group, the
 * keys {@code c000, c001, ...} that exist (one HEAD each, up to the first missing one). Only attempts that did not
 * clean up after themselves (crashed, or zombies) are probed, so this costs nothing on the normal path.
 */
final class Leftovers {

  private static final Logger LOG = LoggerFactory.getLogger(Leftovers.class);
  private static final int MAX_COUNTER = 1_000_000;

  private Leftovers() {
  }

  /** Every key the attempt may have written that exists now (plus its known files, which may or may not). */
  static Set<String> of(ObjectStore store, AttemptEntry entry) throws IOException {
    return of(store, entry, true);
  }

  /**
   * Keys of the attempt: with {@code includeKnown} its known files and what exists after them; without, only
   * what exists after them (a superseded attempt's known files were deleted already: only a zombie's later
   * files can be there).
   */
  static Set<String> of(ObjectStore store, AttemptEntry entry, boolean includeKnown) throws IOException {
    Set<String> keys = new TreeSet<>(includeKnown ? entry.files : List.of());
    for (FileGroup g : entry.groups) {
      if (g.isExact()) {
        if (includeKnown) {
          keys.add(g.keyOf(0));
        }
        continue;
      }
      int start = 0;
      for (String f : entry.files) {
        start = Math.max(start, g.counterOf(f) + 1);
      }
      for (int n = start; n < MAX_COUNTER; n++) {
        String k = g.keyOf(n);
        if (!store.head(k).isPresent()) {
          break;
        }
        keys.add(k);
      }
    }
    return keys;
  }

  /** Deletes keys (nothing sent when empty) and logs what and why. */
  static void delete(ObjectStore store, Collection<String> keys, String why) throws IOException {
    if (keys.isEmpty()) {
      return;
    }
    LOG.info("Deleting {} object(s) of {}: {}", keys.size(), why, keys.size() <= 20 ? keys : keys.size() + " keys");
    store.deleteBatch(keys);
  }
}
