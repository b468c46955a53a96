package io.objectcommit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.s3.model.InitiateMultipartUploadRequest;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/objectcommit as a user runs it: a process that finds its class path by itself (here: the checkout's). */
@S3IntegrationTest
class ObjectCommitScriptIT {

  @Test
  void uploadsListRunsFromTheScript(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    String id = bucket.client().initiateMultipartUpload(
        new InitiateMultipartUploadRequest(bucket.name(), bucket.key("t/part-0.parquet"))).getUploadId();
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
}
