package io.objectcommit.it.faults;

import java.util.Map;

/**
 * A way of committing Spark SQL file output, plugged into the fault scenarios: the Spark settings that select
 * it. Later committers implement this and run the same scenarios under the same seeds. Keep it small.
 */
public interface CommitterContender {

  /** A short name for reports, for example {@code FileOutputCommitter v1}. */
  String name();

  /** Spark settings ({@code spark.*}, {@code spark.hadoop.*}) that make a Parquet write use this committer. */
  Map<String, String> sparkConf();

  /** A contender from a name and its settings. */
  static CommitterContender of(String name, Map<String, String> conf) {
    Map<String, String> settings = Map.copyOf(conf);
    return new CommitterContender() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Map<String, String> sparkConf() {
        return settings;
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }
}
