package io.objectcommit.it.faults;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * A place and a way to keep streaming checkpoints, plugged into the checkpoint scenarios: where the checkpoint
 * lives and the Spark settings that select the checkpoint manager or file system. Keep it small.
 */
public interface CheckpointContender {

  /** A short name for reports. */
  String name();

  /** The checkpoint location for {@code relative} in the proxied bucket (its scheme selects the file system). */
  String location(ProxiedBucket bucket, String relative);

  /** Spark settings ({@code spark.*}, {@code spark.hadoop.*}) that the checkpoint needs. */
  Map<String, String> sparkConf();

  /**
   * A contender named {@code name}, whose locations {@code location} gives; each {@link #sparkConf} call returns a
   * copy of {@code conf}.
   */
  static CheckpointContender of(String name, BiFunction<ProxiedBucket, String, String> location,
      Map<String, String> conf) {
    return new CheckpointContender() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public String location(ProxiedBucket bucket, String relative) {
        return location.apply(bucket, relative);
      }

      @Override
      public Map<String, String> sparkConf() {
        return new LinkedHashMap<>(conf);
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }
}
