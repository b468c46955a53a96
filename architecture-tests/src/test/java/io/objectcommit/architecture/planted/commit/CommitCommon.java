package io.objectcommit.architecture.planted.commit;

import io.objectcommit.architecture.planted.store.StoreApi;

/** Allowed: committer commons use the store. */
public class CommitCommon {
  public StoreApi store() {
    return null;
  }
}
