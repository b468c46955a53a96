package io.objectcommit.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The NFS client behaviour one {@link NfsLikeMount} models (see {@code tools/nfslike/nfslike.py}): attribute cache
 * time-to-live bounds in seconds ({@code acregmin/acregmax/acdirmin/acdirmax}, Linux defaults 3/60/30/60), the
 * negative lookup cache ({@code lookupcache}), close-to-open, and a latency per round trip to the "server".
 * Immutable; the {@code with*} methods return changed copies.
 */
public final class NfsClientOptions {

  /** The {@code lookupcache} mount option of the Linux NFS client. */
  public enum LookupCache {
    /** Positive and negative entries cached (the default). */
    ALL,
    /** Only positive entries cached: "no such file" is always asked of the server. */
    POSITIVE,
    /** Nothing trusted: every lookup goes to the server. */
    NONE
  }

  private final double acregmin;
  private final double acregmax;
  private final double acdirmin;
  private final double acdirmax;
  private final boolean noac;
  private final LookupCache lookupCache;
  private final boolean cto;
  private final double latencyMs;

  private NfsClientOptions(double acregmin, double acregmax, double acdirmin, double acdirmax, boolean noac,
      LookupCache lookupCache, boolean cto, double latencyMs) {
    this.acregmin = acregmin;
    this.acregmax = acregmax;
    this.acdirmin = acdirmin;
    this.acdirmax = acdirmax;
    this.noac = noac;
    this.lookupCache = lookupCache;
    this.cto = cto;
    this.latencyMs = latencyMs;
  }

  /** The Linux NFS client's defaults: acregmin=3, acregmax=60, acdirmin=30, acdirmax=60, lookupcache=all, cto. */
  public static NfsClientOptions linuxDefaults() {
    return new NfsClientOptions(3, 60, 30, 60, false, LookupCache.ALL, true, 0);
  }

  /**
   * The mount options AWS recommends for EFS ({@code nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,
   * retrans=2,noresvport}): none of them changes caching, so the client caches as with the Linux defaults.
   */
  public static NfsClientOptions efsRecommended() {
    return linuxDefaults();
  }

  /** All four attribute-cache bounds set to {@code seconds} ({@code actimeo}). */
  public NfsClientOptions withActimeo(double seconds) {
    return new NfsClientOptions(seconds, seconds, seconds, seconds, noac, lookupCache, cto, latencyMs);
  }

  /** Directory attribute-cache bounds ({@code acdirmin/acdirmax}), for tests that wait for them to expire. */
  public NfsClientOptions withAcdir(double min, double max) {
    return new NfsClientOptions(acregmin, acregmax, min, max, noac, lookupCache, cto, latencyMs);
  }

  /** {@code noac}: no attribute caching. */
  public NfsClientOptions withNoac() {
    return new NfsClientOptions(acregmin, acregmax, acdirmin, acdirmax, true, lookupCache, cto, latencyMs);
  }

  public NfsClientOptions withLookupCache(LookupCache l) {
    return new NfsClientOptions(acregmin, acregmax, acdirmin, acdirmax, noac, l, cto, latencyMs);
  }

  /** {@code nocto}: opening a file or directory does not revalidate it. */
  public NfsClientOptions withNoCto() {
    return new NfsClientOptions(acregmin, acregmax, acdirmin, acdirmax, noac, lookupCache, false, latencyMs);
  }

  /** Latency added to every round trip to the server (cache hits stay free). */
  public NfsClientOptions withLatencyMs(double ms) {
    return new NfsClientOptions(acregmin, acregmax, acdirmin, acdirmax, noac, lookupCache, cto, ms);
  }

  public LookupCache lookupCache() {
    return lookupCache;
  }

  public boolean cto() {
    return cto;
  }

  public double latencyMs() {
    return latencyMs;
  }

  /** The command-line options of nfslike.py. */
  List<String> args() {
    List<String> a = new ArrayList<>(List.of("--acregmin", num(acregmin), "--acregmax", num(acregmax),
        "--acdirmin", num(acdirmin), "--acdirmax", num(acdirmax), "--lookupcache",
        lookupCache.name().toLowerCase(Locale.ROOT), "--latency-ms", num(latencyMs)));
    if (noac) {
      a.add("--noac");
    }
    if (!cto) {
      a.add("--nocto");
    }
    return a;
  }

  private static String num(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }

  /** As NFS mount options, for test names and reports. */
  @Override
  public String toString() {
    return (noac ? "noac" : "acregmin=" + num(acregmin) + ",acregmax=" + num(acregmax) + ",acdirmin="
        + num(acdirmin) + ",acdirmax=" + num(acdirmax)) + ",lookupcache=" + lookupCache.name().toLowerCase(Locale.ROOT)
        + (cto ? "" : ",nocto") + (latencyMs > 0 ? ", latency " + num(latencyMs) + " ms per round trip" : "");
  }
}
