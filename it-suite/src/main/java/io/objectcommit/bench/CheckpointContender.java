package io.objectcommit.bench;

import java.util.Map;
import java.util.function.Function;

/**
 * A place and a way to keep a streaming checkpoint: a name, the checkpoint location of a run (given the fresh
 * S3 location {@code s3a://bucket/prefix/} made for it, it returns a location on its own file system), and the
 * Spark settings that select the checkpoint manager or file system.
 *
 * @param name short name for the reports
 * @param location from the run's {@code bucket/prefix/} (no scheme, ending in '/') to the checkpoint location
 * @param sparkConf {@code spark.*} and {@code spark.hadoop.*} settings
 * @param usesS3 whether the checkpoint goes to S3 (a local-path backend sends no request)
 */
public record CheckpointContender(String name, Function<String, String> location, Map<String, String> sparkConf,
    boolean usesS3) {

  public CheckpointContender {
    sparkConf = Map.copyOf(sparkConf);
  }
}
