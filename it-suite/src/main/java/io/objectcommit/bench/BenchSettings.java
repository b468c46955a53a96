package io.objectcommit.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one benchmark run measures: the write shapes, the shuffle partition counts and micro-batches of the
 * checkpoint benchmark, the latency the proxy adds to every S3 request, and where the reports go. Immutable.
 *
 * <p>Two presets: {@link #SHORT} (the main job) and {@link #FULL} (docs/benchmarks.md, which gives the run times).
 * {@link #parse(List)} reads {@code short|full} followed by {@code key=value} overrides: {@code latency-ms},
 * {@code nfs-latency-ms}, {@code batches}, {@code partitions} (comma-separated; empty: no checkpoint benchmark), {@code master},
 * {@code writes} ({@code false}: no write benchmark), {@code state-stores} (comma-separated, from {@code default},
 * {@code rocksdb}, {@code rocksdb-changelog}, {@code rocksdb-changelog-v2}: every checkpoint contender runs with
 * each; default {@code default}), and any {@code spark.*} key: a Spark setting for every
 * contender's session (for example {@code spark.sql.streaming.checkpoint.fileChecksum.enabled=false}), applied
 * after the contender's own settings.
 */
public record BenchSettings(String mode, long latencyMs, String master, List<WriteShape> writeShapes,
    List<Integer> shufflePartitions, int measuredBatches, Path outputDir, double nfsLatencyMs,
    Map<String, String> sparkConf, List<StateStoreChoice> stateStores) {


  /** Default latency added by the proxy to each request: {@value} ms. */
  public static final long LATENCY_MS_DEFAULT = 20;
  /**
   * Default latency of each round trip to the server of the NFS-like mount (the "local-path backend on the
   * NFS-like mount" contender): {@value} ms, the order of an EFS metadata operation within one availability zone.
   */
  public static final double NFS_LATENCY_MS_DEFAULT = 2;
  /**
   * Spark master of every session: {@value}. Eight task slots, more than a small machine's cores: the tasks of every
   * contender spend most of their time waiting for S3 round trips, which a cluster overlaps across many executors;
   * CPU-bound work still shares the machine's cores.
   */
  public static final String MASTER_DEFAULT = "local[8]";
  /** Reports go here, relative to the module directory (where Maven runs the job). */
  public static final Path OUTPUT_DIR_DEFAULT = Path.of("target", "bench");

  public static final String SHORT = "short";
  public static final String FULL = "full";

  /** Settings without Spark settings of their own, with Spark's default state store. */
  public BenchSettings(String mode, long latencyMs, String master, List<WriteShape> writeShapes,
      List<Integer> shufflePartitions, int measuredBatches, Path outputDir, double nfsLatencyMs) {
    this(mode, latencyMs, master, writeShapes, shufflePartitions, measuredBatches, outputDir, nfsLatencyMs,
        Map.of(), List.of(StateStoreChoice.DEFAULT));
  }

  public BenchSettings {
    sparkConf = Collections.unmodifiableMap(new TreeMap<>(sparkConf));
    stateStores = List.copyOf(new LinkedHashSet<>(stateStores));
    if (stateStores.isEmpty()) {
      throw new IllegalArgumentException("state-stores must name at least one state store");
    }
    writeShapes = List.copyOf(writeShapes);
    shufflePartitions = List.copyOf(shufflePartitions);
    if (measuredBatches < 1) {
      throw new IllegalArgumentException("batches must be at least 1, was " + measuredBatches);
    }
    if (latencyMs < 0 || nfsLatencyMs < 0) {
      throw new IllegalArgumentException("latency-ms and nfs-latency-ms must not be negative, were " + latencyMs
          + " and " + nfsLatencyMs);
    }
  }

  /** The preset of a mode. */
  public static BenchSettings preset(String mode) {
    switch (mode) {
      case SHORT:
        return new BenchSettings(SHORT, LATENCY_MS_DEFAULT, MASTER_DEFAULT,
            List.of(new WriteShape("10 x 1 MB", 10, 10, 44_000), new WriteShape("50 small files", 50, 5, 800)),
            List.of(8, 40), 2, OUTPUT_DIR_DEFAULT, NFS_LATENCY_MS_DEFAULT);
      case FULL:
        return new BenchSettings(FULL, LATENCY_MS_DEFAULT, MASTER_DEFAULT,
            List.of(new WriteShape("200 x 1 MB", 200, 200, 44_000),
                new WriteShape("1,000 small files", 1000, 20, 800)),
            List.of(8, 200), 3, OUTPUT_DIR_DEFAULT, NFS_LATENCY_MS_DEFAULT);
      default:
        throw new IllegalArgumentException("unknown benchmark mode '" + mode + "': use " + SHORT + " or " + FULL);
    }
  }

  /** {@code [short|full] [key=value ...]}; no mode means {@link #SHORT}. */
  public static BenchSettings parse(List<String> args) {
    int i = 0;
    String mode = SHORT;
    if (!args.isEmpty() && !args.get(0).contains("=")) {
      mode = args.get(0);
      i = 1;
    }
    BenchSettings s = preset(mode);
    for (String arg : args.subList(i, args.size())) {
      int eq = arg.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("expected key=value, got '" + arg + "'");
      }
      s = s.with(arg.substring(0, eq), arg.substring(eq + 1));
    }
    return s;
  }

  /** A copy with one setting changed, by its command-line key. */
  public BenchSettings with(String key, String value) {
    if (key.startsWith("spark.")) {
      Map<String, String> conf = new TreeMap<>(sparkConf);
      conf.put(key, value);
      return new BenchSettings(mode, latencyMs, master, writeShapes, shufflePartitions, measuredBatches, outputDir,
          nfsLatencyMs, conf, stateStores);
    }
    if (key.equals("state-stores")) {
      return new BenchSettings(mode, latencyMs, master, writeShapes, shufflePartitions, measuredBatches, outputDir,
          nfsLatencyMs, sparkConf, Arrays.stream(value.split(",")).filter(v -> !v.isBlank())
              .map(StateStoreChoice::of).toList());
    }
    BenchSettings changed = withBenchSetting(key, value);
    return new BenchSettings(changed.mode, changed.latencyMs, changed.master, changed.writeShapes,
        changed.shufflePartitions, changed.measuredBatches, changed.outputDir, changed.nfsLatencyMs, sparkConf,
        stateStores);
  }

  private BenchSettings withBenchSetting(String key, String value) {
    try {
      switch (key) {
        case "latency-ms":
          return new BenchSettings(mode, Long.parseLong(value), master, writeShapes, shufflePartitions,
              measuredBatches, outputDir, nfsLatencyMs);
        case "nfs-latency-ms":
          return new BenchSettings(mode, latencyMs, master, writeShapes, shufflePartitions, measuredBatches,
              outputDir, Double.parseDouble(value));
        case "batches":
          return new BenchSettings(mode, latencyMs, master, writeShapes, shufflePartitions,
              Integer.parseInt(value), outputDir, nfsLatencyMs);
        case "partitions":
          return new BenchSettings(mode, latencyMs, master, writeShapes, value.isBlank() ? List.of()
              : Arrays.stream(value.split(",")).map(String::trim).map(Integer::valueOf).toList(),
              measuredBatches, outputDir, nfsLatencyMs);
        case "writes":
          if (!Boolean.parseBoolean(value) && !"false".equalsIgnoreCase(value)) {
            throw new IllegalArgumentException("writes must be true or false, was '" + value + "'");
          }
          return new BenchSettings(mode, latencyMs, master, Boolean.parseBoolean(value) ? preset(mode).writeShapes()
              : List.of(), shufflePartitions, measuredBatches, outputDir, nfsLatencyMs);
        case "master":
          return new BenchSettings(mode, latencyMs, value, writeShapes, shufflePartitions, measuredBatches,
              outputDir, nfsLatencyMs);
        default:
          throw new IllegalArgumentException("unknown benchmark setting '" + key
              + "' (known: latency-ms, nfs-latency-ms, batches, partitions, master, writes, state-stores, spark.*)");
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("benchmark setting " + key + ": not a number: '" + value + "'", e);
    }
  }

  /** The settings as a flat map, for the reports. */
  public Map<String, Object> describe() {
    return Map.of("mode", mode, "latencyMs", latencyMs, "master", master, "measuredBatches", measuredBatches,
        "shufflePartitions", shufflePartitions, "nfsLatencyMs", nfsLatencyMs, "sparkConf", sparkConf,
        "stateStores", stateStores.stream().map(StateStoreChoice::key).toList());
  }
}
