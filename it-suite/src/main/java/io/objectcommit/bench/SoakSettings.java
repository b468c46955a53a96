package io.objectcommit.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a soak run does ({@code bin/soak key=value ...}; docs/reliability.md, "Soak run"). Immutable; bad values
 * fail naming the setting.
 *
 * @param batches micro-batches to run ({@code batches}, default 2,000)
 * @param stateStores the state stores, one run each ({@code state-stores}, default {@code default,rocksdb})
 * @param warmup micro-batches before the first measured window ({@code warmup}, default 300: Spark purges nothing
 *     before micro-batch 100, as it keeps {@code spark.sql.streaming.minBatchesToRetain} = 100 batches, and its
 *     deletions per micro-batch reach their steady rate only after the first snapshots old enough to delete deltas)
 * @param window micro-batches in each compared window ({@code window}, default 100)
 * @param latencyMs milliseconds the fault proxy adds to every S3 request ({@code latency-ms}, default 20)
 * @param maintenanceSeconds Spark's state store maintenance interval ({@code maintenance-s}, default 2; Spark's
 *     default is 60)
 * @param partitions shuffle partitions, so state store partitions ({@code partitions}, default 4)
 * @param sampleEvery micro-batches between samples of the bucket and the heap ({@code sample-every}, default 10)
 * @param master Spark master ({@code master}, default {@code local[2]})
 */
public record SoakSettings(int batches, List<String> stateStores, int warmup, int window, int latencyMs,
    int maintenanceSeconds, int partitions, int sampleEvery, String master) {

  public SoakSettings {
    stateStores = List.copyOf(stateStores);
    stateStores.forEach(StateStoreChoice::of);
    positive("batches", batches);
    positive("window", window);
    positive("maintenance-s", maintenanceSeconds);
    positive("partitions", partitions);
    positive("sample-every", sampleEvery);
    if (warmup < 0 || latencyMs < 0) {
      throw new IllegalArgumentException("soak settings warmup and latency-ms must not be negative: " + warmup
          + ", " + latencyMs);
    }
    if (warmup + 2 * window > batches) {
      throw new IllegalArgumentException("soak setting batches: " + batches + " is fewer than warmup + 2 * window = "
          + (warmup + 2 * window));
    }
  }

  /** The long run's defaults. */
  public static SoakSettings defaults() {
    return new SoakSettings(2000, List.of("default", "rocksdb"), 300, 100, 20, 2, 4, 10, "local[2]");
  }

  /** A copy with {@code batches} micro-batches and one state store. */
  public SoakSettings with(int newBatches, String stateStore) {
    return new SoakSettings(newBatches, List.of(stateStore), warmup, window, latencyMs, maintenanceSeconds,
        partitions, sampleEvery, master);
  }

  /** From {@code key=value} arguments over {@link #defaults()}. */
  public static SoakSettings parse(List<String> args) {
    SoakSettings d = defaults();
    Map<String, String> m = new LinkedHashMap<>();
    for (String a : args) {
      int eq = a.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("soak argument '" + a + "' is not key=value");
      }
      m.put(a.substring(0, eq).trim(), a.substring(eq + 1).trim());
    }
    List<String> known = List.of("batches", "state-stores", "warmup", "window", "latency-ms", "maintenance-s",
        "partitions", "sample-every", "master");
    List<String> unknown = new ArrayList<>(m.keySet());
    unknown.removeAll(known);
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown soak settings " + unknown + " (known: " + known + ")");
    }
    return new SoakSettings(
        integer(m, "batches", d.batches()),
        m.containsKey("state-stores") ? Arrays.asList(m.get("state-stores").split(",")) : d.stateStores(),
        integer(m, "warmup", d.warmup()),
        integer(m, "window", d.window()),
        integer(m, "latency-ms", d.latencyMs()),
        integer(m, "maintenance-s", d.maintenanceSeconds()),
        integer(m, "partitions", d.partitions()),
        integer(m, "sample-every", d.sampleEvery()),
        m.getOrDefault("master", d.master()));
  }

  private static int integer(Map<String, String> m, String key, int dflt) {
    String v = m.get(key);
    if (v == null) {
      return dflt;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("soak setting " + key + ": '" + v + "' is not a whole number", e);
    }
  }

  private static void positive(String key, int value) {
    if (value <= 0) {
      throw new IllegalArgumentException("soak setting " + key + " must be positive: " + value);
    }
  }
}
