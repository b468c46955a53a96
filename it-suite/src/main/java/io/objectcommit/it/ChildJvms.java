package io.objectcommit.it;

import io.objectcommit.testsupport.TestJvmFlags;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Child JVMs of a test or benchmark: a second driver, a job with another environment, a separate application. */
public final class ChildJvms {

  private ChildJvms() {
  }

  /**
   * The command that runs {@code main} in a new JVM with this JVM's Java, class path and the JVM flags Spark needs
   * on Java 17 ({@code --add-opens}, Netty's reflection flag), the test JVMs' JIT and GC flags
   * ({@link TestJvmFlags}), 1 GiB of heap; append the program's arguments.
   */
  public static List<String> javaCommand(Class<?> main) {
    List<String> flags = new ArrayList<>(TestJvmFlags.FLAGS);
    flags.add("-Xmx1g");
    return javaCommand(main, flags);
  }

  /**
   * The command that runs {@code main} in a new JVM with this JVM's Java, class path and Spark's Java 17 flags, and
   * {@code jvmFlags} (a benchmark gives its heap and none of the test JVMs' JIT and GC flags, which slow long runs);
   * append the program's arguments.
   */
  public static List<String> javaCommand(Class<?> main, List<String> jvmFlags) {
    List<String> flags = new ArrayList<>();
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens") || arg.startsWith("-Dio.netty") || arg.startsWith("-XX:+Ignore")) {
        flags.add(arg);
      }
    }
    flags.addAll(jvmFlags);
    return TestJvmFlags.javaCommand(main, flags);
  }

  /**
   * Starts a Spark driver in a new JVM ({@link #javaCommand}): {@code main} with {@code args}, then each Hadoop
   * setting as {@code spark.hadoop.<key>=<value>} and each Spark setting as {@code <key>=<value>}; stdout and stderr
   * to {@code output}; Spark bound to the loopback address.
   */
  public static Process sparkDriver(Class<?> main, List<String> args, Map<String, String> hadoop,
      Map<String, String> spark, Path output) throws java.io.IOException {
    List<String> cmd = javaCommand(main);
    cmd.addAll(args);
    hadoop.forEach((k, v) -> cmd.add("spark.hadoop." + k + "=" + v));
    spark.forEach((k, v) -> cmd.add(k + "=" + v));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(output.toFile());
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    return pb.start();
  }
}
