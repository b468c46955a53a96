package io.objectcommit.direct.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.direct.DirectCommitterConstants;
import io.objectcommit.direct.SparkEnvironmentUnreadableException;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The speculation guard's lookup of the running Spark, on small stand-ins for Spark's {@code SparkEnv} and
 * {@code SparkConf} compiled here and loaded apart from the test's class path: Spark absent, present but idle,
 * running with one public method naming a class the runtime lacks (PySpark 4.3.0's {@code SparkEnv} names protobuf
 * types that its {@code jars/} do not hold), and present but unreadable.
 */
class SparkEnvLookupTest {

  private static final String MISSING = "com.google.protobuf.MessageOrBuilder";

  private static final Map<String, String> SOURCES = Map.of(
      "org/apache/spark/SparkConf.java",
      "package org.apache.spark;\n"
          + "public class SparkConf {\n"
          + "  private final boolean speculation;\n"
          + "  public SparkConf(boolean speculation) { this.speculation = speculation; }\n"
          + "  public boolean getBoolean(String key, boolean dflt) {\n"
          + "    return \"spark.speculation\".equals(key) ? speculation : dflt;\n"
          + "  }\n"
          + "}\n",
      "org/apache/spark/SparkEnv.java",
      "package org.apache.spark;\n"
          + "public class SparkEnv {\n"
          + "  public static SparkEnv current;\n"
          + "  private final SparkConf conf;\n"
          + "  public SparkEnv(boolean speculation) { this.conf = new SparkConf(speculation); }\n"
          + "  public static SparkEnv get() { return current; }\n"
          + "  public SparkConf conf() { return conf; }\n"
          + "  public " + MISSING + " message() { return null; }\n"
          + "}\n",
      "com/google/protobuf/MessageOrBuilder.java",
      "package com.google.protobuf;\npublic interface MessageOrBuilder {}\n");

  @TempDir
  Path dir;

  /** The stand-ins compiled into {@code dir}, with the classes named in {@code remove} deleted afterwards. */
  private ClassLoader spark(String... remove) throws IOException {
    List<String> files = new ArrayList<>();
    for (Map.Entry<String, String> e : SOURCES.entrySet()) {
      Path f = dir.resolve("src").resolve(e.getKey());
      Files.createDirectories(f.getParent());
      Files.writeString(f, e.getValue());
      files.add(f.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<String> args = new ArrayList<>(List.of("-d", dir.resolve("classes").toString()));
    args.addAll(files);
    assertEquals(0, javac.run(null, null, null, args.toArray(new String[0])), "stand-ins compile");
    for (String name : remove) {
      Files.delete(dir.resolve("classes").resolve(name.replace('.', '/') + ".class"));
    }
    return new URLClassLoader(new URL[] {dir.resolve("classes").toUri().toURL()},
        ClassLoader.getPlatformClassLoader());
  }

  private static void run(ClassLoader loader, boolean speculation) throws Exception {
    Class<?> env = Class.forName(SpeculationGuard.SPARK_ENV, true, loader);
    env.getField("current").set(null, env.getConstructor(boolean.class).newInstance(speculation));
  }

  private static SpeculationGuard guard(ClassLoader loader) {
    return new SpeculationGuard(() -> SpeculationGuard.sparkEnvSpeculation(loader));
  }

  @Test
  void sparkAbsentMeansMapReduceWhoseDefaultsSpeculate() throws Exception {
    ClassLoader none = new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader());
    assertEquals(Optional.empty(), SpeculationGuard.sparkEnvSpeculation(none));
    assertEquals(List.of("mapreduce.map.speculative=true", "mapreduce.reduce.speculative=true"),
        guard(none).enabledBy(new JobConf()));
  }

  @Test
  void sparkOnTheClassPathWithNoEnvironmentIsNotASparkTask() throws Exception {
    assertEquals(Optional.empty(), SpeculationGuard.sparkEnvSpeculation(spark()));
  }

  @Test
  void aRunningSparkIsReadWhenAnUnrelatedMethodNamesAClassItDoesNotShip() throws Exception {
    ClassLoader loader = spark(MISSING);
    run(loader, false);
    assertEquals(Optional.of(false), SpeculationGuard.sparkEnvSpeculation(loader));
    assertEquals(List.of(), guard(loader).enabledBy(new JobConf()),
        "speculation off: Hadoop's mapred-default.xml values mean nothing to Spark");

    run(loader, true);
    assertEquals(Optional.of(true), SpeculationGuard.sparkEnvSpeculation(loader));
    Configuration userTurnedHadoopsOff = new JobConf();
    userTurnedHadoopsOff.setBoolean(DirectCommitterConstants.MAP_SPECULATIVE, false);
    userTurnedHadoopsOff.setBoolean(DirectCommitterConstants.REDUCE_SPECULATIVE, false);
    assertEquals(List.of("spark.speculation=true"), guard(loader).enabledBy(userTurnedHadoopsOff),
        "spark.speculation=true is refused whatever Hadoop's keys say");
  }

  @Test
  void aSparkThatCannotBeReadFailsNamingTheClassAndTheSetting() throws Exception {
    ClassLoader loader = spark("org.apache.spark.SparkConf");
    SparkEnvironmentUnreadableException e = assertThrows(SparkEnvironmentUnreadableException.class,
        () -> guard(loader).enabledBy(new JobConf()));
    assertEquals("org.apache.spark.SparkEnv", e.className());
    assertEquals("spark.speculation", e.setting());
    assertInstanceOf(ClassNotFoundException.class, e.getCause());
    assertTrue(e.getMessage().contains("org.apache.spark.SparkEnv") && e.getMessage().contains("Spark lines"),
        e.getMessage());
  }
}
