package io.objectcommit.bench;

import io.objectcommit.testsupport.proxy.RequestCounts;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * S3 requests of one measurement, by operation (in {@link S3Operation} order, operations with none left out), and
 * how many HEADs and GETs found nothing (404). Immutable.
 *
 * @param byOperation operation name to requests
 * @param notFound HEAD and GET requests answered 404
 */
public record Requests(Map<String, Long> byOperation, long notFound) {

  /** No requests at all. */
  public static final Requests NONE = new Requests(Map.of(), 0);

  public Requests {
    byOperation = Collections.unmodifiableMap(new LinkedHashMap<>(byOperation));
  }

  /** From the proxy's counts. */
  public static Requests of(RequestCounts counts) {
    Map<String, Long> m = new LinkedHashMap<>();
    for (S3Operation op : S3Operation.values()) {
      long n = counts.of(op);
      if (n != 0) {
        m.put(op.name(), n);
      }
    }
    return new Requests(m, counts.of(S3Operation.HEAD, 404) + counts.of(S3Operation.GET, 404));
  }

  /** All requests. */
  public long total() {
    return byOperation.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Requests of one operation (0 when none). */
  public long of(String operation) {
    return byOperation.getOrDefault(operation, 0L);
  }
}
