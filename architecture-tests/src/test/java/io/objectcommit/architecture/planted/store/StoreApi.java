package io.objectcommit.architecture.planted.store;

import io.objectcommit.architecture.planted.direct.DirectCommitter;

/** Planted: the store reaches up into a committer (layering). */
public class StoreApi {
  public DirectCommitter upward() {
    return null;
  }
}
