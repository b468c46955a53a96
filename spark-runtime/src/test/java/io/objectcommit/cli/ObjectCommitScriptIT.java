package io.objectcommit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.objectcommit.testsupport.S3Endpoints;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3Store;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/objectcommit as a user runs it: a process that finds its class path by itself (here: the checkout's). */
@S3IntegrationTest
@Tag(TestTags.COMMAND)
class ObjectCommitScriptIT {

  @Test
  void uploadsListRunsFromTheScript(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    String id = bucket.plain().initiateMultipartUpload(bucket.name(), bucket.key("t/part-0.parquet"));
    Path script = Path.of(System.getProperty("objectcommit.checkout", "..")).resolve("bin/objectcommit");
    assertTrue(Files.isExecutable(script), script.toString());
    List<String> cmd = new ArrayList<>(List.of(script.toString(), "uploads", "list", bucket.s3a("t"),
        "--older-than", "0s"));
    cmd.addAll(CommandRun.settings(bucket, dir));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(dir.resolve("out").toFile())
        .redirectError(dir.resolve("err").toFile());
    pb.environment().remove("SPARK_HOME");
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    Process p = pb.start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the command finished");
    String out = Files.readString(dir.resolve("out"), StandardCharsets.UTF_8);
    String err = Files.readString(dir.resolve("err"), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), out + err);
    assertTrue(out.contains(id) && out.contains("1 incomplete uploads"), out + err);
    assertTrue(err.startsWith("objectcommit: class path from this checkout's build"), err);

    Process usage = new ProcessBuilder(script.toString(), "uploads", "list", "-D", "novalue")
        .redirectErrorStream(true).start();
    String text = new String(usage.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(usage.waitFor(120, TimeUnit.SECONDS));
    assertEquals(2, usage.exitValue(), text);
    assertTrue(text.contains("objectcommit uploads: -D novalue: expected key=value"), text);
  }

  /** A run of bin/objectcommit with these arguments and the bucket's settings: exit code, stdout + stderr. */
  private static Map.Entry<Integer, String> script(S3TestBucket bucket, Path dir, String... args) throws Exception {
    Path script = Path.of(System.getProperty("objectcommit.checkout", "..")).resolve("bin/objectcommit");
    List<String> cmd = new ArrayList<>(List.of(script.toString()));
    cmd.addAll(List.of(args));
    cmd.addAll(CommandRun.settings(bucket, dir));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().remove("SPARK_HOME");
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    Process p = pb.start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the command finished");
    return Map.entry(p.exitValue(), text);
  }

  /** store check's exit codes are the script's: 0 when every guarantee holds, 3 when the check cannot run. */
  @Test
  void storeCheckExitCodesFromTheScript(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    assumeTrue(S3Endpoints.store() == S3Store.LOCALSTACK, "LocalStack gives every guarantee (docs/stores.md)");
    Map.Entry<Integer, String> holds = script(bucket, dir, "store", "check", bucket.s3a("team-a"));
    assertEquals(0, holds.getKey(), holds.getValue());
    assertTrue(holds.getValue().contains("total                    7 of 7 hold"), holds.getValue());
    Map.Entry<Integer, String> missing = script(bucket, dir, "store", "check", "s3a://no-such-bucket-objectcommit/t");
    assertEquals(3, missing.getKey(), missing.getValue());
    assertTrue(missing.getValue().contains("the bucket does not exist"), missing.getValue());
  }

  /**
   * Outside a checkout, with a Spark home that lacks hadoop-aws and the SDK (as a pip-installed PySpark does): the
   * script says what is missing, and finds both once they are where spark-submit --packages puts them.
   */
  @Test
  void aSparkHomePlusTheIvyJars(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    Path checkout = Path.of(System.getProperty("objectcommit.checkout", ".."));
    Path bin = Files.createDirectories(dir.resolve("elsewhere/bin"));
    Files.copy(checkout.resolve("bin/objectcommit"), bin.resolve("objectcommit"));
    bin.resolve("objectcommit").toFile().setExecutable(true);
    Path jars = Files.createDirectories(dir.resolve("spark/jars"));
    Path ivy = Files.createDirectories(dir.resolve("home/.ivy2/jars"));
    String cp = Files.readString(checkout.resolve("spark-runtime/target/runtime-classpath.txt")).trim();
    for (String entry : cp.split(":")) {
      Path jar = Path.of(entry);
      String name = jar.getFileName().toString();
      if (name.startsWith("hadoop-aws-")) {
        Files.createSymbolicLink(ivy.resolve("org.apache.hadoop_" + name), jar);
      } else if (name.startsWith("aws-java-sdk-bundle-")) {
        Files.createSymbolicLink(ivy.resolve("com.amazonaws_" + name), jar);
      } else if (!Files.exists(jars.resolve(name))) {
        Files.createSymbolicLink(jars.resolve(name), jar);
      }
    }
    Map<String, String> env = Map.of("SPARK_HOME", dir.resolve("spark").toString(),
        "OBJECTCOMMIT_JAR", BundleContentsIT.bundle().toString(), "JAVA_HOME", System.getProperty("java.home"));

    Path emptyHome = Files.createDirectories(dir.resolve("empty-home"));
    String[] help = run(bin, env, emptyHome, dir, "checkpoint", "--help");
    assertEquals("0", help[0], help[1] + help[2]);
    assertTrue(help[2].contains("objectcommit: WARNING: hadoop-aws-3.3.4.jar and aws-java-sdk-bundle not found")
        && help[2].contains("--packages org.apache.hadoop:hadoop-aws:3.3.4"), help[2]);
    assertTrue(help[2].contains("objectcommit: class path from the Spark home " + dir.resolve("spark")), help[2]);

    String id = bucket.plain().initiateMultipartUpload(bucket.name(), bucket.key("t/part-0.parquet"));
    List<String> args = new ArrayList<>(List.of("uploads", "list", bucket.s3a("t"), "--older-than", "0s"));
    args.addAll(CommandRun.settings(bucket, dir));
    String[] list = run(bin, env, dir.resolve("home"), dir, args.toArray(new String[0]));
    assertEquals("0", list[0], list[1] + list[2]);
    assertTrue(list[1].contains(id), list[1] + list[2]);
    assertTrue(list[2].startsWith("objectcommit: class path from the Spark home") && !list[2].contains("WARNING"),
        list[2]);
  }

  private static String[] run(Path bin, Map<String, String> env, Path home, Path dir, String... args)
      throws Exception {
    List<String> cmd = new ArrayList<>(List.of(bin.resolve("objectcommit").toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(dir.resolve("out").toFile())
        .redirectError(dir.resolve("err").toFile());
    pb.environment().putAll(env);
    pb.environment().put("HOME", home.toString());
    pb.environment().put("PATH", "/usr/bin:/bin"); // no pyspark, no hadoop: only SPARK_HOME
    Process p = pb.start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the command finished");
    return new String[] {Integer.toString(p.exitValue()),
        Files.readString(dir.resolve("out"), StandardCharsets.UTF_8),
        Files.readString(dir.resolve("err"), StandardCharsets.UTF_8)};
  }
}
