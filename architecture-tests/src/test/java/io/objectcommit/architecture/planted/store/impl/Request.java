package io.objectcommit.architecture.planted.store.impl;

/** The store's request path, used from another component by {@code DirectCommitter} (planted). */
public class Request {
}
