package io.objectcommit.fs.testing;

import io.objectcommit.testsupport.proxy.S3Operation;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * An immutable snapshot of the requests an {@link InMemoryObjectStore} bucket answered, by {@link S3Operation}
 * (the names the fault proxy counts with) and HTTP status as S3 would answer (200, 204 for a DELETE, 206 for a
 * ranged GET, 304, 404, 412, ...; an injected fault counts under its rule's status). Also counts how many
 * requests carried a condition ({@code If-None-Match} / {@code If-Match}). Same methods and {@code toString} as
 * the proxy's {@code RequestCounts}.
 */
public final class InMemoryRequestCounts {

  private final Map<S3Operation, Map<Integer, Long>> counts;
  private final Map<S3Operation, Long> conditional;

  InMemoryRequestCounts(Map<S3Operation, Map<Integer, Long>> counts, Map<S3Operation, Long> conditional) {
    Map<S3Operation, Map<Integer, Long>> copy = new EnumMap<>(S3Operation.class);
    counts.forEach((op, byStatus) -> copy.put(op, Collections.unmodifiableMap(new TreeMap<>(byStatus))));
    this.counts = Collections.unmodifiableMap(copy);
    Map<S3Operation, Long> c = new EnumMap<>(S3Operation.class);
    c.putAll(conditional);
    this.conditional = Collections.unmodifiableMap(c);
  }

  /** Requests of this operation, whatever their status. */
  public long of(S3Operation op) {
    return counts.getOrDefault(op, Map.of()).values().stream().mapToLong(Long::longValue).sum();
  }

  /** Requests of this operation answered with this status. */
  public long of(S3Operation op, int status) {
    return counts.getOrDefault(op, Map.of()).getOrDefault(status, 0L);
  }

  /** Requests of this operation answered with a 2xx status. */
  public long succeeded(S3Operation op) {
    return counts.getOrDefault(op, Map.of()).entrySet().stream()
        .filter(e -> e.getKey() >= 200 && e.getKey() < 300).mapToLong(Map.Entry::getValue).sum();
  }

  /** Requests of this operation that carried {@code If-None-Match: *} or {@code If-Match} (PUT, complete). */
  public long conditional(S3Operation op) {
    return conditional.getOrDefault(op, 0L);
  }

  /** All requests. */
  public long total() {
    return counts.values().stream().flatMap(m -> m.values().stream()).mapToLong(Long::longValue).sum();
  }

  /** Operation to (status to count). */
  public Map<S3Operation, Map<Integer, Long>> asMap() {
    return counts;
  }

  /** The difference {@code this - earlier}, operation by operation and status by status. */
  public InMemoryRequestCounts minus(InMemoryRequestCounts earlier) {
    Map<S3Operation, Map<Integer, Long>> d = new EnumMap<>(S3Operation.class);
    counts.forEach((op, byStatus) -> byStatus.forEach((status, n) -> {
      long diff = n - earlier.of(op, status);
      if (diff != 0) {
        d.computeIfAbsent(op, k -> new TreeMap<>()).put(status, diff);
      }
    }));
    Map<S3Operation, Long> c = new EnumMap<>(S3Operation.class);
    conditional.forEach((op, n) -> {
      long diff = n - earlier.conditional(op);
      if (diff != 0) {
        c.put(op, diff);
      }
    });
    return new InMemoryRequestCounts(d, c);
  }

  /** For example {@code total=12 PUT=3(200:3) HEAD=5(200:2,404:3) LIST=4(200:4)}, as the proxy prints. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("total=").append(total());
    counts.forEach((op, byStatus) -> {
      sb.append(' ').append(op).append('=').append(of(op)).append('(');
      StringBuilder inner = new StringBuilder();
      byStatus.forEach((status, n) -> inner.append(inner.length() == 0 ? "" : ",").append(status).append(':')
          .append(n));
      sb.append(inner).append(')');
    });
    if (!conditional.isEmpty()) {
      sb.append(" conditional").append(conditional);
    }
    return sb.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof InMemoryRequestCounts && counts.equals(((InMemoryRequestCounts) o).counts)
        && conditional.equals(((InMemoryRequestCounts) o).conditional);
  }

  @Override
  public int hashCode() {
    return counts.hashCode();
  }
}
