package io.objectcommit.architecture.planted.store.impl;

import io.objectcommit.architecture.planted.store.guarantee.Check;
import io.objectcommit.architecture.planted.store.impl.v1.V1Binding;

/**
 * The store's request path, used from another component by {@code DirectCommitter} (planted); itself uses the
 * guarantee check and names a binding's class (both planted).
 */
public class Request {
  public Check check() {
    return null;
  }

  public V1Binding binding() {
    return null;
  }
}
