package io.objectcommit.direct.impl;

import static io.objectcommit.direct.DirectCommitterConstants.MAP_SPECULATIVE;
import static io.objectcommit.direct.DirectCommitterConstants.ON_SPECULATION;
import static io.objectcommit.direct.DirectCommitterConstants.ON_SPECULATION_CLASSIC;
import static io.objectcommit.direct.DirectCommitterConstants.REDUCE_SPECULATIVE;
import static io.objectcommit.direct.DirectCommitterConstants.SPARK_SPECULATION;

import io.objectcommit.direct.SparkEnvironmentUnreadableException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/**
 * Tells whether the job may run speculative attempts. In Spark: {@code spark.speculation} of the running Spark
 * environment (looked up by name, so that the committer also runs without Spark), plus Hadoop's
 * {@code mapreduce.*.speculative} when the job or site configuration sets them (their {@code mapred-default.xml}
 * default, true, means nothing to Spark). Without Spark (MapReduce) Hadoop's values count whatever their source.
 */
public final class SpeculationGuard {

  /** Spark's environment, whose {@code get()} is set in every driver and executor JVM. */
  static final String SPARK_ENV = "org.apache.spark.SparkEnv";
  static final String SPARK_CONF = "org.apache.spark.SparkConf";

  /** What the running Spark says of {@code spark.speculation}. */
  @FunctionalInterface
  public interface SparkLookup {
    /**
     * {@code spark.speculation} of the running Spark environment; empty when Spark is absent from the class path or
     * no Spark environment runs in this JVM.
     *
     * @throws SparkEnvironmentUnreadableException when Spark is there but cannot be read
     */
    Optional<Boolean> speculation() throws SparkEnvironmentUnreadableException;
  }

  private final SparkLookup sparkSpeculation;

  /** A guard reading the running Spark environment, if any. */
  public SpeculationGuard() {
    this(() -> sparkEnvSpeculation(SpeculationGuard.class.getClassLoader()));
  }

  /** A guard with the Spark lookup given. */
  public SpeculationGuard(SparkLookup sparkSpeculation) {
    this.sparkSpeculation = sparkSpeculation;
  }

  /**
   * The settings that turn speculation on, empty if none does.
   *
   * @throws SparkEnvironmentUnreadableException when Spark is on the class path but cannot be read
   */
  public List<String> enabledBy(Configuration conf) throws SparkEnvironmentUnreadableException {
    List<String> on = new ArrayList<>();
    Optional<Boolean> spark = sparkSpeculation.speculation();
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

  /**
   * {@code SparkEnv.get().conf().getBoolean("spark.speculation", false)} through {@code loader}: empty when
   * {@code SparkEnv} does not load (no Spark) or no environment is set (Spark's classes, no Spark running).
   * Each method is resolved by its name and type alone: {@code Class.getMethod} resolves the types of every public
   * method of the class, and one of them may name a class the running Spark does not ship (PySpark 4.3.0's
   * {@code SparkEnv} names protobuf types), which must not read as "no Spark".
   *
   * @throws SparkEnvironmentUnreadableException when {@code SparkEnv} loads but cannot be read
   */
  static Optional<Boolean> sparkEnvSpeculation(ClassLoader loader) throws SparkEnvironmentUnreadableException {
    Class<?> envClass;
    try {
      envClass = Class.forName(SPARK_ENV, false, loader);
    } catch (ClassNotFoundException e) {
      return Optional.empty();
    } catch (LinkageError e) {
      throw new SparkEnvironmentUnreadableException(SPARK_ENV, SPARK_SPECULATION, e);
    }
    try {
      MethodHandles.Lookup lookup = MethodHandles.publicLookup();
      Class<?> confClass = Class.forName(SPARK_CONF, false, loader);
      Object env = lookup.findStatic(envClass, "get", MethodType.methodType(envClass)).invoke();
      if (env == null) {
        return Optional.empty();
      }
      Object conf = lookup.findVirtual(envClass, "conf", MethodType.methodType(confClass)).invoke(env);
      boolean on = (boolean) lookup.findVirtual(confClass, "getBoolean",
          MethodType.methodType(boolean.class, String.class, boolean.class)).invoke(conf, SPARK_SPECULATION, false);
      return Optional.of(on);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      throw new SparkEnvironmentUnreadableException(SPARK_ENV, SPARK_SPECULATION, e);
    }
  }
}
