package io.objectcommit.bench;

import java.util.Map;

/**
 * A way of committing a Parquet write: a name for the reports and the Spark settings that select it.
 *
 * @param name short name, for example {@code S3A magic}
 * @param sparkConf {@code spark.*} and {@code spark.hadoop.*} settings, as a user gives them to spark-submit
 */
public record WriteContender(String name, Map<String, String> sparkConf) {

  public WriteContender {
    sparkConf = Map.copyOf(sparkConf);
  }
}
