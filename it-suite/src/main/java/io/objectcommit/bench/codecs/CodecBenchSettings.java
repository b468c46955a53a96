package io.objectcommit.bench.codecs;

import io.objectcommit.codecs.CodecConstants;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run of the compressed-text benchmark does ({@code bin/run-codec-benchmark key=value ...};
 * docs/benchmarks.md, "Compressed text that Spark splits"). Immutable; bad values fail naming the setting.
 *
 * @param textBytes uncompressed size of the generated text ({@code size-mb}, in units of 10^6 bytes; default 2,000:
 *     2 GB, the minimum)
 * @param runs measurements per format and location, interleaved ({@code runs}, default 5)
 * @param latencyMs fixed milliseconds the proxy adds to every S3 request ({@code latency-ms}, default 20)
 * @param jitterMs upper bound of the uniform jitter added on top ({@code jitter-ms}, default 5)
 * @param bandwidthBytesPerSecond the proxy's limit per client connection ({@code bandwidth-mbps}, in 10^6 bytes per
 *     second; default 50; 0: unlimited)
 * @param formats the formats, in run order ({@code formats}, default all)
 * @param locations where the files are read from ({@code locations}, default {@code s3,local})
 * @param gzipIndexSpacing decoded bytes between the checkpoints of the gzip index ({@code gzip-index-spacing},
 *     default the user's default of {@code objectcommit gzip-index})
 * @param master Spark master ({@code master}, default {@code local[2]})
 * @param outputDir where the reports go ({@code out}, default {@code target/codec-bench})
 * @param cacheDir where the generated files are kept between runs ({@code cache}, default
 *     {@code target/codec-bench-files})
 */
public record CodecBenchSettings(long textBytes, int runs, int latencyMs, int jitterMs, long bandwidthBytesPerSecond,
    List<TextFormat> formats, List<Location> locations, int gzipIndexSpacing, String master, Path outputDir,
    Path cacheDir) {

  /** Where a file is read from. */
  public enum Location {
    /** LocalStack through the latency and bandwidth proxy, with S3A. */
    S3("S3 (proxy)"),
    /** The local disk, {@code file://} (in the page cache after the first run). */
    LOCAL("local disk");

    private final String label;

    Location(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  private static final List<String> KEYS = List.of("size-mb", "runs", "latency-ms", "jitter-ms", "bandwidth-mbps",
      "formats", "locations", "gzip-index-spacing", "master", "out", "cache");

  public CodecBenchSettings {
    formats = List.copyOf(formats);
    locations = List.copyOf(locations);
    if (textBytes < 1) {
      throw new IllegalArgumentException("codec benchmark setting size-mb must be positive: " + textBytes);
    }
    if (runs < 1) {
      throw new IllegalArgumentException("codec benchmark setting runs must be positive: " + runs);
    }
    if (latencyMs < 0 || jitterMs < 0 || bandwidthBytesPerSecond < 0) {
      throw new IllegalArgumentException("codec benchmark settings latency-ms, jitter-ms and bandwidth-mbps must not"
          + " be negative: " + latencyMs + ", " + jitterMs + ", " + bandwidthBytesPerSecond);
    }
    if (formats.isEmpty() || locations.isEmpty()) {
      throw new IllegalArgumentException("codec benchmark settings formats and locations must not be empty");
    }
    if (gzipIndexSpacing < CodecConstants.GZIP_INDEX_MIN_SPACING
        || gzipIndexSpacing > CodecConstants.GZIP_INDEX_MAX_SPACING) {
      throw new IllegalArgumentException("codec benchmark setting gzip-index-spacing must be between "
          + CodecConstants.GZIP_INDEX_MIN_SPACING + " and " + CodecConstants.GZIP_INDEX_MAX_SPACING + ": "
          + gzipIndexSpacing);
    }
  }

  /** The full run's defaults (docs/benchmarks.md). */
  public static CodecBenchSettings defaults() {
    return new CodecBenchSettings(2_000_000_000L, 5, 20, 5, 50_000_000L, List.of(TextFormat.values()),
        List.of(Location.S3, Location.LOCAL), CodecConstants.GZIP_INDEX_SPACING_DEFAULT, "local[2]",
        Path.of("target", "codec-bench"), Path.of("target", "codec-bench-files"));
  }

  /** From {@code key=value} arguments over {@link #defaults()}. */
  public static CodecBenchSettings parse(List<String> args) {
    CodecBenchSettings d = defaults();
    Map<String, String> m = new LinkedHashMap<>();
    for (String a : args) {
      int eq = a.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("codec benchmark argument '" + a + "' is not key=value");
      }
      m.put(a.substring(0, eq).trim(), a.substring(eq + 1).trim());
    }
    List<String> unknown = new ArrayList<>(m.keySet());
    unknown.removeAll(KEYS);
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown codec benchmark settings " + unknown + " (known: " + KEYS + ")");
    }
    return new CodecBenchSettings(
        number(m, "size-mb", d.textBytes() / 1_000_000) * 1_000_000,
        (int) number(m, "runs", d.runs()),
        (int) number(m, "latency-ms", d.latencyMs()),
        (int) number(m, "jitter-ms", d.jitterMs()),
        number(m, "bandwidth-mbps", d.bandwidthBytesPerSecond() / 1_000_000) * 1_000_000,
        m.containsKey("formats") ? TextFormat.parseList(m.get("formats")) : d.formats(),
        m.containsKey("locations") ? locations(m.get("locations")) : d.locations(),
        (int) number(m, "gzip-index-spacing", d.gzipIndexSpacing()),
        m.getOrDefault("master", d.master()),
        m.containsKey("out") ? Path.of(m.get("out")) : d.outputDir(),
        m.containsKey("cache") ? Path.of(m.get("cache")) : d.cacheDir());
  }

  /** A copy writing its reports to {@code dir}. */
  public CodecBenchSettings withOutputDir(Path dir) {
    return new CodecBenchSettings(textBytes, runs, latencyMs, jitterMs, bandwidthBytesPerSecond, formats, locations,
        gzipIndexSpacing, master, dir, cacheDir);
  }

  /** One line for the console and the report. */
  public String describe() {
    return String.format("%,d bytes of text, %d runs, proxy %d ms + 0-%d ms jitter per request and %s per"
        + " connection, formats %s, locations %s, Spark %s", textBytes, runs, latencyMs, jitterMs,
        bandwidthBytesPerSecond == 0 ? "no limit" : String.format("%,d bytes/s", bandwidthBytesPerSecond),
        formats.stream().map(TextFormat::key).toList(), locations, master);
  }

  private static List<Location> locations(String v) {
    List<Location> out = new ArrayList<>();
    for (String s : v.split(",")) {
      try {
        out.add(Location.valueOf(s.trim().toUpperCase(java.util.Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("codec benchmark setting locations: '" + s + "' is not one of "
            + Arrays.toString(Location.values()), e);
      }
    }
    return out;
  }

  private static long number(Map<String, String> m, String key, long dflt) {
    String v = m.get(key);
    if (v == null) {
      return dflt;
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("codec benchmark setting " + key + ": '" + v + "' is not a whole number", e);
    }
  }
}
