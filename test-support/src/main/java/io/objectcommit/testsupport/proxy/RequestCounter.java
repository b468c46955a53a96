package io.objectcommit.testsupport.proxy;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts answered requests by operation and status, and keeps each request with its {@code Referer}, {@code User-Agent} and {@code Range} headers (up
 * to {@link #MAX_KEPT}: a long job's requests stay counted beyond it); thread-safe; snapshots are
 * {@link RequestCounts} and lists of {@link SeenRequest}.
 */
final class RequestCounter {

  private static final Logger LOG = LoggerFactory.getLogger(RequestCounter.class);

  /** Requests kept for {@link #seen()} between two resets (about 100 MB at most). */
  static final int MAX_KEPT = 500_000;

  private final Map<S3Operation, Map<Integer, Long>> counts = new EnumMap<>(S3Operation.class);
  private final List<SeenRequest> seen = new ArrayList<>();
  private long dropped;

  synchronized void record(S3Request request, int status, String referrer, String userAgent, String range) {
    counts.computeIfAbsent(request.operation(), k -> new TreeMap<>()).merge(status, 1L, Long::sum);
    if (seen.size() < MAX_KEPT) {
      seen.add(new SeenRequest(request, status, referrer, userAgent, range));
    } else if (dropped++ == 0) {
      LOG.warn("S3 fault proxy: more than {} requests since the last reset; later ones are counted, not kept",
          MAX_KEPT);
    }
  }

  synchronized RequestCounts snapshot() {
    return new RequestCounts(counts);
  }

  /** The requests kept since start or the last reset, in the order they were answered. */
  synchronized List<SeenRequest> seen() {
    return List.copyOf(seen);
  }

  /** Requests counted but not kept (beyond {@link #MAX_KEPT}). */
  synchronized long dropped() {
    return dropped;
  }

  /** The counts, then a reset, at once: no request falls between the two. */
  synchronized RequestCounts snapshotAndReset() {
    RequestCounts c = snapshot();
    reset();
    return c;
  }

  synchronized void reset() {
    counts.clear();
    seen.clear();
    dropped = 0;
  }
}
