package io.objectcommit.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one run of the read-cache benchmark ({@link ReadCacheBenchmark}) measures. Immutable.
 *
 * <p>{@link #parse(List)} reads {@code key=value} overrides of {@link #defaults()}: {@code sizes-mb}
 * (comma-separated), {@code runs}, {@code latency-ms}, {@code jitter-ms}, {@code bandwidth-mbps} (MB/s per
 * connection, 0: unlimited), {@code master}, {@code heap} (of each application's JVM), {@code contenders}
 * (comma-separated names of {@link ReadContender}, in any case, {@code -} for {@code _}).
 *
 * @param sizesMb the table sizes, in MB (10^6 bytes), smallest first
 * @param runs measured runs of each contender at each size, interleaved round by round
 * @param latencyMs fixed latency the proxy adds to every request
 * @param jitterMs the most the proxy adds on top of {@code latencyMs} (uniform, seeded)
 * @param bandwidthMbPerS bandwidth of each connection through the proxy, MB/s in each direction (0: unlimited)
 * @param master Spark master of every application
 * @param heap {@code -Xmx} of every application's JVM
 * @param jvmFlags more flags of every application's JVM: none in a benchmark run (Java's defaults, as users run);
 *     the IT's tiny run, whose times mean nothing, gives the test JVMs' JIT and GC flags ({@code TestJvmFlags})
 * @param contenders the contenders, in round order
 * @param outputDir where the reports go
 */
public record ReadBenchSettings(List<Integer> sizesMb, int runs, long latencyMs, long jitterMs,
    long bandwidthMbPerS, String master, String heap, List<String> jvmFlags, List<ReadContender> contenders,
    Path outputDir) {

  /** Default sizes: {@code 100,500,1000} MB. */
  public static final List<Integer> SIZES_MB_DEFAULT = List.of(100, 500, 1000);
  /** Default runs per contender and size: {@value} (the issue asks for at least 7). */
  public static final int RUNS_DEFAULT = 7;
  /** Default latency added to each request: {@value} ms, S3's first-byte latency within a region. */
  public static final long LATENCY_MS_DEFAULT = 20;
  /** Default jitter on top: up to {@value} ms more. */
  public static final long JITTER_MS_DEFAULT = 10;
  /**
   * Default bandwidth per connection: {@value} MB/s, the order of what one connection to S3 carries (S3 scales
   * across connections, not within one), so that bytes a contender saves show as time saved.
   */
  public static final long BANDWIDTH_MB_PER_S_DEFAULT = 50;
  /** Default Spark master: {@value}, the two cores of the machine the runs use. */
  public static final String MASTER_DEFAULT = "local[2]";
  /** Default heap of each application: {@value}. */
  public static final String HEAP_DEFAULT = "2g";
  /** Reports go here, relative to the module directory (where Maven runs the job). */
  public static final Path OUTPUT_DIR_DEFAULT = Path.of("target", "readcache-bench");

  public ReadBenchSettings {
    sizesMb = List.copyOf(sizesMb);
    jvmFlags = List.copyOf(jvmFlags);
    contenders = List.copyOf(contenders);
    if (sizesMb.isEmpty() || sizesMb.stream().anyMatch(s -> s <= 0)) {
      throw new IllegalArgumentException("sizes-mb must name positive sizes: " + sizesMb);
    }
    if (runs <= 0) {
      throw new IllegalArgumentException("runs must be positive: " + runs);
    }
    if (contenders.contains(ReadContender.CACHE_WARM) && !contenders.contains(ReadContender.CACHE_COLD)) {
      throw new IllegalArgumentException("contenders: cache_warm needs cache_cold (the run that fills the cache)");
    }
  }

  /** The full run of docs/benchmarks.md. */
  public static ReadBenchSettings defaults() {
    return new ReadBenchSettings(SIZES_MB_DEFAULT, RUNS_DEFAULT, LATENCY_MS_DEFAULT, JITTER_MS_DEFAULT,
        BANDWIDTH_MB_PER_S_DEFAULT, MASTER_DEFAULT, HEAP_DEFAULT, List.of(), ReadContender.benchmarkOrder(),
        OUTPUT_DIR_DEFAULT);
  }

  /** The defaults with {@code key=value} overrides; an unknown key or a bad value fails naming the key. */
  public static ReadBenchSettings parse(List<String> args) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String a : args) {
      int eq = a.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("read-cache benchmark argument '" + a + "' is not key=value");
      }
      m.put(a.substring(0, eq).trim(), a.substring(eq + 1).trim());
    }
    List<String> known = List.of("sizes-mb", "runs", "latency-ms", "jitter-ms", "bandwidth-mbps", "master", "heap",
        "contenders");
    List<String> unknown = new ArrayList<>(m.keySet());
    unknown.removeAll(known);
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown read-cache benchmark settings " + unknown + " (known: " + known
          + ")");
    }
    ReadBenchSettings d = defaults();
    List<Integer> sizes = d.sizesMb();
    if (m.containsKey("sizes-mb")) {
      sizes = new ArrayList<>();
      for (String s : m.get("sizes-mb").split(",", -1)) {
        sizes.add((int) number("sizes-mb", s.trim()));
      }
    }
    List<ReadContender> contenders = d.contenders();
    if (m.containsKey("contenders")) {
      try {
        contenders = Arrays.stream(m.get("contenders").split(",", -1)).map(String::trim).map(ReadContender::of)
            .toList();
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("read-cache benchmark setting contenders: " + e.getMessage(), e);
      }
    }
    return new ReadBenchSettings(sizes,
        m.containsKey("runs") ? (int) number("runs", m.get("runs")) : d.runs(),
        m.containsKey("latency-ms") ? number("latency-ms", m.get("latency-ms")) : d.latencyMs(),
        m.containsKey("jitter-ms") ? number("jitter-ms", m.get("jitter-ms")) : d.jitterMs(),
        m.containsKey("bandwidth-mbps") ? number("bandwidth-mbps", m.get("bandwidth-mbps"))
            : d.bandwidthMbPerS(),
        m.getOrDefault("master", d.master()), m.getOrDefault("heap", d.heap()), d.jvmFlags(), contenders,
        d.outputDir());
  }

  /** How the reports describe the proxy. */
  String proxyDescription() {
    return String.format("%d ms + up to %d ms jitter per request, %s per connection", latencyMs, jitterMs,
        bandwidthMbPerS == 0 ? "unlimited bandwidth" : bandwidthMbPerS + " MB/s");
  }

  private static long number(String key, String v) {
    try {
      long n = Long.parseLong(v);
      if (n < 0) {
        throw new IllegalArgumentException("read-cache benchmark setting " + key + " must not be negative: " + v);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("read-cache benchmark setting " + key + ": '" + v
          + "' is not a whole number", e);
    }
  }
}
