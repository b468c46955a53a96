package io.objectcommit.testsupport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * JIT and GC flags for the short-lived JVMs tests start (a child JVM running a job, a standalone cluster's master,
 * workers, drivers and executors), the same as the root pom gives every test JVM ({@code test.jvm.args}): the
 * client compiler only and the serial collector. A JVM that runs Spark for a few seconds spends most of its CPU
 * warming up; on two cores these flags halve a Spark JVM's CPU time to its first job (docs/development.md, "Why
 * the tests are fast"). They change nothing the tests check; benchmarks and the main job do not use them.
 */
public final class TestJvmFlags {

  /** The flags, one per element. */
  public static final List<String> FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

  private TestJvmFlags() {
  }

  /** The flags as one string, for {@code spark.*.extraJavaOptions} and {@code SPARK_DAEMON_JAVA_OPTS}. */
  public static String joined() {
    return String.join(" ", FLAGS);
  }

  /**
   * The command that runs {@code main} in a new JVM with this JVM's Java and class path and {@link #FLAGS}; append
   * the program's arguments.
   */
  public static List<String> javaCommand(Class<?> main) {
    return javaCommand(main, FLAGS);
  }

  /**
   * The command that runs {@code main} in a new JVM with this JVM's Java and class path and exactly {@code jvmFlags}
   * (a benchmark's applications run without {@link #FLAGS}); append the program's arguments.
   */
  public static List<String> javaCommand(Class<?> main, List<String> jvmFlags) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmFlags);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(main.getName());
    return cmd;
  }
}
