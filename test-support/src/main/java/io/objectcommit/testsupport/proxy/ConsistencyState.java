package io.objectcommit.testsupport.proxy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * What the proxy remembers about recent changes, to answer as an eventually consistent store would: when each
 * key was last written or deleted, when a GET/HEAD last found it missing, and the version an overwrite replaced.
 * Keys are {@code bucket/key}. Recording always happens; the windows of the current {@link FaultPlan} decide what
 * is done with it. Thread-safe.
 */
final class ConsistencyState {

  private static final class Deletion {
    final long at;
    final ListingEntry entry;

    Deletion(long at, ListingEntry entry) {
      this.at = at;
      this.entry = entry;
    }
  }

  private static final class Overwrite {
    final long at;
    final StoredObject previous;

    Overwrite(long at, StoredObject previous) {
      this.at = at;
      this.previous = previous;
    }
  }

  private final LongSupplier clock;
  private final Map<String, Long> written = new HashMap<>();
  private final Map<String, Deletion> deleted = new HashMap<>();
  private final Map<String, Long> missing = new HashMap<>();
  private final Map<String, Overwrite> overwritten = new HashMap<>();

  ConsistencyState(LongSupplier clock) {
    this.clock = clock;
  }

  long now() {
    return clock.getAsLong();
  }

  /** A write of {@code path} succeeded; {@code previous} is the version it replaced, if the proxy fetched it. */
  synchronized void recordWrite(String path, StoredObject previous) {
    long now = now();
    written.put(path, now);
    deleted.remove(path);
    if (previous != null) {
      overwritten.put(path, new Overwrite(now, previous));
    } else {
      overwritten.remove(path);
    }
  }

  /** A delete of {@code path} succeeded; {@code entry} is how it was listed before, if it existed. */
  synchronized void recordDelete(String path, ListingEntry entry) {
    written.remove(path);
    overwritten.remove(path);
    if (entry != null) {
      deleted.put(path, new Deletion(now(), entry));
    }
  }

  /** A GET or HEAD of {@code path} found nothing at the store. */
  synchronized void recordMissing(String path) {
    missing.put(path, now());
  }

  /** Whether a listing should leave {@code path} out: written less than {@code windowMs} ago. */
  synchronized boolean hiddenFromListing(String path, FaultPlan plan) {
    Long at = written.get(path);
    return at != null && within(at, plan.listingHideCreatedMs()) && applies(plan.listingPathPattern(), path);
  }

  /** True if some key under {@code pathPrefix} is currently hidden from listings. */
  synchronized boolean anyHiddenUnder(String pathPrefix, FaultPlan plan) {
    for (String path : written.keySet()) {
      if (path.startsWith(pathPrefix) && hiddenFromListing(path, plan)) {
        return true;
      }
    }
    return false;
  }

  /** Deleted keys under {@code pathPrefix} that a listing should still show, as {@code bucket}-relative entries. */
  synchronized List<ListingEntry> ghostsUnder(String bucket, String keyPrefix, FaultPlan plan) {
    List<ListingEntry> out = new ArrayList<>();
    String pathPrefix = bucket + "/" + keyPrefix;
    deleted.forEach((path, d) -> {
      if (path.startsWith(pathPrefix) && within(d.at, plan.listingShowDeletedMs())
          && applies(plan.listingPathPattern(), path)) {
        out.add(d.entry);
      }
    });
    return out;
  }

  /** Whether GET/HEAD of {@code path} should answer 404 without asking the store. */
  synchronized boolean negativelyCached(String path, FaultPlan plan) {
    Long at = missing.get(path);
    return at != null && within(at, plan.negativeCacheMs());
  }

  /** The version a GET/HEAD of {@code path} should still see, if it was overwritten within the window. */
  synchronized Optional<StoredObject> staleVersion(String path, FaultPlan plan) {
    Overwrite o = overwritten.get(path);
    return o != null && within(o.at, plan.staleReadMs()) ? Optional.of(o.previous) : Optional.empty();
  }

  synchronized void clear() {
    written.clear();
    deleted.clear();
    missing.clear();
    overwritten.clear();
  }

  private boolean within(long at, long windowMs) {
    return windowMs > 0 && now() - at < windowMs;
  }

  private static boolean applies(Pattern pattern, String path) {
    return pattern == null || pattern.matcher(path).find();
  }
}
