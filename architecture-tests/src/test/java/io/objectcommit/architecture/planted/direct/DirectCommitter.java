package io.objectcommit.architecture.planted.direct;

import io.objectcommit.architecture.planted.commit.CommitCommon;
import io.objectcommit.architecture.planted.store.impl.Request;

/** Planted: a committer uses the store's request path (impl from another component). */
public class DirectCommitter {
  public Request request() {
    return null;
  }

  public CommitCommon common() {
    return null;
  }
}
