package io.objectcommit.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The state store a checkpoint run's stateful query uses, set for every contender alike: Spark's default
 * (HDFS-backed: one delta file per partition and micro-batch, snapshots by maintenance) or RocksDB (an SST zip per
 * partition and micro-batch, or with changelog checkpointing a changelog file per micro-batch and SST zips by
 * maintenance; checkpoint format v2, Spark 4.0 and later, adds unique checkpoint ids to the file names).
 */
enum StateStoreChoice {

  DEFAULT("default", "default state store (HDFS-backed)", 3, Map.of()),
  ROCKSDB("rocksdb", "RocksDB state store", 3, Map.of(
      "spark.sql.streaming.stateStore.providerClass", StateStoreChoice.ROCKSDB_PROVIDER)),
  ROCKSDB_CHANGELOG("rocksdb-changelog", "RocksDB state store, changelog checkpointing", 3, Map.of(
      "spark.sql.streaming.stateStore.providerClass", StateStoreChoice.ROCKSDB_PROVIDER,
      "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled", "true")),
  ROCKSDB_CHANGELOG_V2("rocksdb-changelog-v2", "RocksDB state store, changelog checkpointing, checkpoint format v2",
      4, Map.of(
          "spark.sql.streaming.stateStore.providerClass", StateStoreChoice.ROCKSDB_PROVIDER,
          "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled", "true",
          "spark.sql.streaming.stateStore.checkpointFormatVersion", "2"));

  /** Spark's RocksDB provider; the same class on Spark 3.5 and every Spark 4 line. */
  static final String ROCKSDB_PROVIDER = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";

  private final String key;
  private final String label;
  private final int sinceSparkMajor;
  private final Map<String, String> sparkConf;

  StateStoreChoice(String key, String label, int sinceSparkMajor, Map<String, String> sparkConf) {
    this.key = key;
    this.label = label;
    this.sinceSparkMajor = sinceSparkMajor;
    this.sparkConf = new LinkedHashMap<>(sparkConf);
  }

  /** The name in the {@code state-stores} setting. */
  String key() {
    return key;
  }

  /** How the reports name it. */
  String label() {
    return label;
  }

  /** The Spark settings that select it (empty for the default). */
  Map<String, String> sparkConf() {
    return Map.copyOf(sparkConf);
  }

  /** By its name in the {@code state-stores} setting. */
  static StateStoreChoice of(String key) {
    return Arrays.stream(values()).filter(c -> c.key.equals(key.trim())).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("benchmark setting state-stores: unknown state store '"
            + key.trim() + "' (known: " + Arrays.stream(values()).map(StateStoreChoice::key)
                .collect(Collectors.joining(", ")) + ")"));
  }

  /**
   * Fails, naming the setting, when the running Spark does not have this state store's features (format v2 before
   * Spark 4.0, where Spark would ignore the setting and run format v1 under the v2 label).
   */
  void requireSpark(String sparkVersion) {
    int major = Integer.parseInt(sparkVersion.substring(0, sparkVersion.indexOf('.')));
    if (major < sinceSparkMajor) {
      throw new IllegalArgumentException("benchmark setting state-stores: " + key + " needs Spark "
          + sinceSparkMajor + ".0 or later, this is Spark " + sparkVersion);
    }
  }
}
