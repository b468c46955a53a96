package io.objectcommit.it;

import io.objectcommit.testsupport.TestJvmFlags;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens") || arg.startsWith("-Dio.netty") || arg.startsWith("-XX:+Ignore")) {
        cmd.add(arg);
      }
    }
    cmd.addAll(jvmFlags);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(main.getName());
    return cmd;
  }
}
