package io.objectcommit.direct.impl;

import static io.objectcommit.direct.DirectCommitterConstants.MAP_SPECULATIVE;
import static io.objectcommit.direct.DirectCommitterConstants.ON_SPECULATION;
import static io.objectcommit.direct.DirectCommitterConstants.ON_SPECULATION_CLASSIC;
import static io.objectcommit.direct.DirectCommitterConstants.REDUCE_SPECULATIVE;
import static io.objectcommit.direct.DirectCommitterConstants.SPARK_SPECULATION;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;

/**
 * Tells whether the job may run speculative attempts. In Spark: {@code spark.speculation} of the running Spark
 * environment (looked up by reflection, so that the committer also runs without Spark), plus Hadoop's
 * {@code mapreduce.*.speculative} when the job or site configuration sets them (their {@code mapred-default.xml}
 * default, true, means nothing to Spark). Without Spark (MapReduce) Hadoop's values count whatever their source.
 */
public final class SpeculationGuard {

  private final Supplier<Optional<Boolean>> sparkSpeculation;

  /** A guard reading the running Spark environment, if any. */
  public SpeculationGuard() {
    this(SpeculationGuard::sparkEnvSpeculation);
  }

  /** A guard with the Spark lookup given (empty: not running in Spark). */
  public SpeculationGuard(Supplier<Optional<Boolean>> sparkSpeculation) {
    this.sparkSpeculation = sparkSpeculation;
  }

  /** The settings that turn speculation on, empty if none does. */
  public List<String> enabledBy(Configuration conf) {
    List<String> on = new ArrayList<>();
    Optional<Boolean> spark = sparkSpeculation.get();
    if (spark.orElse(false)) {
      on.add(SPARK_SPECULATION + "=true");
    }
    for (String key : new String[] {MAP_SPECULATIVE, REDUCE_SPECULATIVE}) {
      if (conf.getBoolean(key, false) && (!spark.isPresent() || setByJob(conf, key))) {
        on.add(key + "=true");
      }
    }
    return on;
  }

  private static boolean setByJob(Configuration conf, String key) {
    String[] sources = conf.getPropertySources(key);
    if (sources == null || sources.length == 0) {
      return true;
    }
    for (String s : sources) {
      if (!s.endsWith("-default.xml")) {
        return true;
      }
    }
    return false;
  }

  /** The message of the guard's failure. */
  public static String message(List<String> enabledBy) {
    return "Speculative execution is enabled (" + String.join(", ", enabledBy) + ") and the objectcommit direct"
        + " committer cannot make it safe: two attempts of one task would write the same final objects at the same"
        + " time. Either turn speculation off for this job (spark.speculation=false, or mapreduce.map.speculative"
        + "=false and mapreduce.reduce.speculative=false), or set " + ON_SPECULATION + "=" + ON_SPECULATION_CLASSIC
        + " to commit such jobs with the classic rename-based committer (slow on S3, with a warning), or use a"
        + " committer that stages output until job commit (objectcommit's staging committer, or the S3A magic or"
        + " directory committer).";
  }

  /** {@code SparkEnv.get().conf().getBoolean("spark.speculation", false)}, empty when Spark is absent or idle. */
  static Optional<Boolean> sparkEnvSpeculation() {
    try {
      Class<?> envClass = Class.forName("org.apache.spark.SparkEnv");
      Object env = envClass.getMethod("get").invoke(null);
      if (env == null) {
        return Optional.empty();
      }
      Object conf = envClass.getMethod("conf").invoke(env);
      Object v = conf.getClass().getMethod("getBoolean", String.class, boolean.class)
          .invoke(conf, SPARK_SPECULATION, false);
      return Optional.of((Boolean) v);
    } catch (ClassNotFoundException | NoClassDefFoundError e) {
      return Optional.empty();
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("Cannot read " + SPARK_SPECULATION + " from the running Spark environment: "
          + e, e);
    }
  }
}
