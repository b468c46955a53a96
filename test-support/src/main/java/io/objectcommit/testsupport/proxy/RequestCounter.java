package io.objectcommit.testsupport.proxy;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

/** Counts answered requests by operation and status; thread-safe; snapshots are {@link RequestCounts}. */
final class RequestCounter {

  private final Map<S3Operation, Map<Integer, Long>> counts = new EnumMap<>(S3Operation.class);

  synchronized void record(S3Operation op, int status) {
    counts.computeIfAbsent(op, k -> new TreeMap<>()).merge(status, 1L, Long::sum);
  }

  synchronized RequestCounts snapshot() {
    return new RequestCounts(counts);
  }

  synchronized void reset() {
    counts.clear();
  }
}
