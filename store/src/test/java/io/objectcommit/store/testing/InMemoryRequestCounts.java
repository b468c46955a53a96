package io.objectcommit.store.testing;

import io.objectcommit.testsupport.proxy.RequestCounts;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * An immutable snapshot of the requests an {@link InMemoryObjectStore} bucket answered, by {@link S3Operation}
 * (the names the fault proxy counts with) and HTTP status as S3 would answer (200, 204 for a DELETE, 206 for a
 * ranged GET, 304, 404, 412, ...; an injected fault counts under its rule's status). Also counts how many
 * requests carried a condition ({@code If-None-Match} / {@code If-Match}). The proxy's {@link RequestCounts}, plus
 * {@link #conditional}.
 */
public final class InMemoryRequestCounts extends RequestCounts {

  private final Map<S3Operation, Long> conditional;

  InMemoryRequestCounts(Map<S3Operation, Map<Integer, Long>> counts, Map<S3Operation, Long> conditional) {
    super(counts);
    Map<S3Operation, Long> c = new EnumMap<>(S3Operation.class);
    c.putAll(conditional);
    this.conditional = Collections.unmodifiableMap(c);
  }

  /** Requests of this operation that carried {@code If-None-Match: *} or {@code If-Match} (PUT, complete). */
  public long conditional(S3Operation op) {
    return conditional.getOrDefault(op, 0L);
  }

  /** The difference {@code this - earlier}, operation by operation and status by status, conditional too. */
  public InMemoryRequestCounts minus(InMemoryRequestCounts earlier) {
    Map<S3Operation, Long> c = new EnumMap<>(S3Operation.class);
    conditional.forEach((op, n) -> {
      long diff = n - earlier.conditional(op);
      if (diff != 0) {
        c.put(op, diff);
      }
    });
    return new InMemoryRequestCounts(difference(earlier), c);
  }

  /** As the proxy prints, then the conditional requests: {@code total=3 PUT=3(200:2,412:1) conditional{PUT=2}}. */
  @Override
  public String toString() {
    return super.toString() + (conditional.isEmpty() ? "" : " conditional" + conditional);
  }

  @Override
  public boolean equals(Object o) {
    return super.equals(o) && conditional.equals(((InMemoryRequestCounts) o).conditional);
  }

  @Override
  public int hashCode() {
    return super.hashCode() * 31 + conditional.hashCode();
  }
}
