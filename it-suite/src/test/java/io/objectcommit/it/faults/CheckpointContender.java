package io.objectcommit.it.faults;

import java.util.Map;

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
}
