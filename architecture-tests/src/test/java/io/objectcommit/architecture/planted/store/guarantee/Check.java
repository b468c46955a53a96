package io.objectcommit.architecture.planted.store.guarantee;

/** The guarantee check, used by the request path (planted: {@code store.impl.Request}). */
public class Check {
}
