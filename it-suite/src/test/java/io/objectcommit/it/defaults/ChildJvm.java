package io.objectcommit.it.defaults;

import io.objectcommit.it.ChildJvms;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@link DefaultsJob} in a child JVM with the test classpath and exactly the environment given: every
 * inherited {@code AWS_*} variable is removed first, and {@code AWS_EC2_METADATA_DISABLED=true} is set (the
 * instance metadata service is not what these tests are about).
 */
final class ChildJvm {

  private ChildJvm() {
  }

  /** Output of the child (stdout and stderr), and its exit code. */
  static final class Result {
    final int exitCode;
    final String output;

    Result(int exitCode, String output) {
      this.exitCode = exitCode;
      this.output = output;
    }

    /** The lines the job printed about its checks. */
    String summary() {
      StringBuilder b = new StringBuilder();
      for (String line : output.split("\n")) {
        if (line.startsWith("DEFAULTS-JOB")) {
          b.append(line).append('\n');
        }
      }
      return b.toString();
    }
  }

  static Result run(List<String> args, Map<String, String> env, Path dir) throws Exception {
    List<String> cmd = ChildJvms.javaCommand(DefaultsJob.class);
    cmd.addAll(args);
    Path out = dir.resolve("child.out");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("AWS_"));
    pb.environment().put("AWS_EC2_METADATA_DISABLED", "true");
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("the child JVM did not finish in 5 minutes; its output: " + Files.readString(out));
    }
    return new Result(p.exitValue(), Files.readString(out));
  }
}
