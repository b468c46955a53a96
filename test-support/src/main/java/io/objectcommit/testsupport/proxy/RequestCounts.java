package io.objectcommit.testsupport.proxy;

import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * An immutable snapshot of the requests the proxy answered, by operation and HTTP status (status 0: connection
 * reset by the proxy). Requests the proxy sends on its own to learn about the store are not included. The in-memory
 * store of the store module's tests counts with the same class (a subclass that also counts conditional requests).
 */
public class RequestCounts {

  private final Map<S3Operation, Map<Integer, Long>> counts;

  protected RequestCounts(Map<S3Operation, Map<Integer, Long>> counts) {
    Map<S3Operation, Map<Integer, Long>> copy = new EnumMap<>(S3Operation.class);
    counts.forEach((op, byStatus) -> copy.put(op, Collections.unmodifiableMap(new TreeMap<>(byStatus))));
    this.counts = Collections.unmodifiableMap(copy);
  }

  /** The counts of these requests, for example of one client's among what the proxy saw. */
  public static RequestCounts of(Collection<SeenRequest> requests) {
    Map<S3Operation, Map<Integer, Long>> counts = new EnumMap<>(S3Operation.class);
    for (SeenRequest r : requests) {
      counts.computeIfAbsent(r.operation(), k -> new TreeMap<>()).merge(r.status(), 1L, Long::sum);
    }
    return new RequestCounts(counts);
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

  /** All requests. */
  public long total() {
    return counts.values().stream().flatMap(m -> m.values().stream()).mapToLong(Long::longValue).sum();
  }

  /** Operation to (status to count). */
  public Map<S3Operation, Map<Integer, Long>> asMap() {
    return counts;
  }

  /** The difference {@code this - earlier}, operation by operation and status by status. */
  public RequestCounts minus(RequestCounts earlier) {
    return new RequestCounts(difference(earlier));
  }

  /** Operation to (status to count) of {@code this - earlier}, without zero entries. */
  protected final Map<S3Operation, Map<Integer, Long>> difference(RequestCounts earlier) {
    Map<S3Operation, Map<Integer, Long>> d = new EnumMap<>(S3Operation.class);
    counts.forEach((op, byStatus) -> byStatus.forEach((status, n) -> {
      long diff = n - earlier.of(op, status);
      if (diff != 0) {
        d.computeIfAbsent(op, k -> new TreeMap<>()).put(status, diff);
      }
    }));
    return d;
  }

  /** For example {@code total=12 PUT=3(200:3) HEAD=5(200:2,404:3) LIST=4(200:4)}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("total=").append(total());
    counts.forEach((op, byStatus) -> {
      sb.append(' ').append(op).append('=').append(of(op)).append('(');
      StringBuilder inner = new StringBuilder();
      byStatus.forEach((status, n) -> inner.append(inner.length() == 0 ? "" : ",").append(status).append(':').append(n));
      sb.append(inner).append(')');
    });
    return sb.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o != null && o.getClass() == getClass() && counts.equals(((RequestCounts) o).counts);
  }

  @Override
  public int hashCode() {
    return counts.hashCode();
  }
}
