package io.objectcommit.testsupport.proxy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The fault model of an {@link S3FaultProxy}: what it does to the requests it forwards. Immutable; build with
 * {@link #builder(long)}, install with {@link S3FaultProxy#setFaults(FaultPlan)}. Every random choice comes
 * from generators seeded from {@link #seed()}, so the same plan given the same sequence of requests makes the
 * same choices.
 *
 * <p>Time windows are measured on the proxy's clock from the moment the proxy saw the store answer the request
 * that started them (a write, a delete, a 404). A window of zero turns the fault off.
 */
public final class FaultPlan {

  private static final FaultPlan NONE = builder(0).build();

  private final long seed;
  private final long listingHideCreatedMs;
  private final long listingShowDeletedMs;
  private final Pattern listingPathPattern;
  private final long negativeCacheMs;
  private final long staleReadMs;
  private final long latencyFixedMs;
  private final long latencyJitterMs;
  private final long uploadStallMs;
  private final long bandwidthBytesPerSecond;
  private final List<ErrorRule> errors;
  private final Set<S3Operation> conditionsDropped;

  private FaultPlan(Builder b) {
    this.seed = b.seed;
    this.listingHideCreatedMs = b.listingHideCreatedMs;
    this.listingShowDeletedMs = b.listingShowDeletedMs;
    this.listingPathPattern = b.listingPathPattern;
    this.negativeCacheMs = b.negativeCacheMs;
    this.staleReadMs = b.staleReadMs;
    this.latencyFixedMs = b.latencyFixedMs;
    this.latencyJitterMs = b.latencyJitterMs;
    this.uploadStallMs = b.uploadStallMs;
    this.bandwidthBytesPerSecond = b.bandwidthBytesPerSecond;
    this.errors = Collections.unmodifiableList(new ArrayList<>(b.errors));
    this.conditionsDropped = Collections.unmodifiableSet(b.conditionsDropped.isEmpty()
        ? EnumSet.noneOf(S3Operation.class) : EnumSet.copyOf(b.conditionsDropped));
  }

  /** A faithful proxy: no faults, no latency (it still counts). */
  public static FaultPlan none() {
    return NONE;
  }

  public static Builder builder(long seed) {
    return new Builder(seed);
  }

  /** A builder starting from this plan. */
  public Builder toBuilder() {
    Builder b = new Builder(seed);
    b.listingHideCreatedMs = listingHideCreatedMs;
    b.listingShowDeletedMs = listingShowDeletedMs;
    b.listingPathPattern = listingPathPattern;
    b.negativeCacheMs = negativeCacheMs;
    b.staleReadMs = staleReadMs;
    b.latencyFixedMs = latencyFixedMs;
    b.latencyJitterMs = latencyJitterMs;
    b.uploadStallMs = uploadStallMs;
    b.bandwidthBytesPerSecond = bandwidthBytesPerSecond;
    b.errors.addAll(errors);
    b.conditionsDropped.addAll(conditionsDropped);
    return b;
  }

  public long seed() {
    return seed;
  }

  /** Keys written less than this long ago are missing from listings (0: off). */
  public long listingHideCreatedMs() {
    return listingHideCreatedMs;
  }

  /** Keys deleted less than this long ago are still listed (0: off). */
  public long listingShowDeletedMs() {
    return listingShowDeletedMs;
  }

  /** Listing inconsistency applies only to {@code bucket/key} paths containing a match (null: every key). */
  public Pattern listingPathPattern() {
    return listingPathPattern;
  }

  /** After a 404 on GET/HEAD of a key, GET/HEAD of it answer 404 for this long (0: off). */
  public long negativeCacheMs() {
    return negativeCacheMs;
  }

  /** For this long after an overwrite, GET/HEAD of the key return the previous version (0: off). */
  public long staleReadMs() {
    return staleReadMs;
  }

  public long latencyFixedMs() {
    return latencyFixedMs;
  }

  /** Upper bound of the uniform extra delay added to {@link #latencyFixedMs()} per request. */
  public long latencyJitterMs() {
    return latencyJitterMs;
  }

  /**
   * How long the body of each PutObject is held after its head was forwarded (0: off): the store has the request,
   * and may check its conditions, this long before the data arrives, as with a slow upload.
   */
  public long uploadStallMs() {
    return uploadStallMs;
  }

  /**
   * The bandwidth of each client connection in each direction, in bytes per second (0: unlimited): a response body
   * of n bytes takes at least n / bandwidth seconds to reach the client, as over a link of that bandwidth, so
   * saving bytes saves time as it does against a real store. Connections are limited each on its own, as S3's are.
   */
  public long bandwidthBytesPerSecond() {
    return bandwidthBytesPerSecond;
  }

  public List<ErrorRule> errors() {
    return errors;
  }

  /**
   * The operations whose {@code If-None-Match} and {@code If-Match} headers the proxy drops before forwarding: the
   * store then writes unconditionally, as a store that ignores the headers does (S3Proxy 2.0.0, moto 4.2.14). A
   * store that checks signatures refuses such a request (the headers are signed): for LocalStack, which does not.
   */
  public Set<S3Operation> conditionsDropped() {
    return conditionsDropped;
  }

  /** True when LIST responses may need rewriting. */
  public boolean listingInconsistent() {
    return listingHideCreatedMs > 0 || listingShowDeletedMs > 0;
  }

  @Override
  public String toString() {
    return "FaultPlan{seed=" + seed + ", listing hide-created=" + listingHideCreatedMs + "ms show-deleted="
        + listingShowDeletedMs + "ms" + (listingPathPattern == null ? "" : " on /" + listingPathPattern + "/")
        + ", negative-cache=" + negativeCacheMs + "ms, stale-read=" + staleReadMs + "ms, latency="
        + latencyFixedMs + "+" + latencyJitterMs + "ms, upload-stall=" + uploadStallMs + "ms, bandwidth="
        + (bandwidthBytesPerSecond == 0 ? "unlimited" : bandwidthBytesPerSecond + "B/s per connection")
        + ", errors=" + errors
        + (conditionsDropped.isEmpty() ? "" : ", conditions dropped on " + conditionsDropped) + "}";
  }

  /** Builds a {@link FaultPlan}; every fault starts off. */
  public static final class Builder {
    private final long seed;
    private long listingHideCreatedMs;
    private long listingShowDeletedMs;
    private Pattern listingPathPattern;
    private long negativeCacheMs;
    private long staleReadMs;
    private long latencyFixedMs;
    private long latencyJitterMs;
    private long uploadStallMs;
    private long bandwidthBytesPerSecond;
    private final List<ErrorRule> errors = new ArrayList<>();
    private final Set<S3Operation> conditionsDropped = EnumSet.noneOf(S3Operation.class);

    private Builder(long seed) {
      this.seed = seed;
    }

    /** Keys created within {@code window} are missing from listings, and keys deleted within it still listed. */
    public Builder listingInconsistency(Duration window) {
      return listingHideCreated(window).listingShowDeleted(window);
    }

    public Builder listingHideCreated(Duration window) {
      this.listingHideCreatedMs = nonNegative(window, "listing window");
      return this;
    }

    public Builder listingShowDeleted(Duration window) {
      this.listingShowDeletedMs = nonNegative(window, "listing window");
      return this;
    }

    /** Restricts listing inconsistency to {@code bucket/key} paths containing a match of {@code regex}. */
    public Builder listingOnly(String regex) {
      this.listingPathPattern = regex == null ? null : Pattern.compile(regex);
      return this;
    }

    public Builder negativeCaching(Duration window) {
      this.negativeCacheMs = nonNegative(window, "negative-cache window");
      return this;
    }

    public Builder staleReadAfterOverwrite(Duration window) {
      this.staleReadMs = nonNegative(window, "stale-read window");
      return this;
    }

    /** Delays every request by {@code fixed} plus a uniform draw in [0, {@code jitter}] before forwarding it. */
    public Builder latency(Duration fixed, Duration jitter) {
      this.latencyFixedMs = nonNegative(fixed, "latency");
      this.latencyJitterMs = nonNegative(jitter, "jitter");
      return this;
    }

    /**
     * Forwards each PutObject's head at once and its body {@code stall} later, as a slow upload would: a store
     * that checks a conditional write's precondition when the head arrives, and writes when the body is in, has
     * the two that far apart.
     */
    public Builder uploadStall(Duration stall) {
      this.uploadStallMs = nonNegative(stall, "upload stall");
      return this;
    }

    /** Limits each client connection to {@code bytesPerSecond} in each direction (0: unlimited). */
    public Builder bandwidthPerConnection(long bytesPerSecond) {
      if (bytesPerSecond < 0) {
        throw new IllegalArgumentException("bandwidth must not be negative: " + bytesPerSecond);
      }
      this.bandwidthBytesPerSecond = bytesPerSecond;
      return this;
    }

    /** Adds an error rule; rules are consulted in the order added and the first that fires wins. */
    public Builder error(ErrorRule rule) {
      errors.add(rule);
      return this;
    }

    /**
     * Drops the {@code If-None-Match} and {@code If-Match} headers of requests of these operations (PUT,
     * MULTIPART_COMPLETE): a store that ignores conditional writes there ({@link FaultPlan#conditionsDropped}).
     */
    public Builder dropConditions(S3Operation... operations) {
      Collections.addAll(conditionsDropped, operations);
      return this;
    }

    public FaultPlan build() {
      return new FaultPlan(this);
    }

    private static long nonNegative(Duration d, String what) {
      long ms = d.toMillis();
      if (ms < 0) {
        throw new IllegalArgumentException(what + " must not be negative: " + d);
      }
      return ms;
    }
  }
}
