package io.objectcommit.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** The inspection tool: ls, verify (and what it finds), gc (and what it never touches). */
@S3IntegrationTest
class CheckpointToolIT {

  private static String[] args(S3TestBucket bucket, String... rest) {
    List<String> a = new ArrayList<>();
    bucket.s3aOptions().forEach((k, v) -> {
      a.add("-D");
      a.add(k + "=" + v);
    });
    a.addAll(List.of(rest));
    return a.toArray(new String[0]);
  }

  private static final class Run {
    final int code;
    final String out;

    Run(int code, String out) {
      this.code = code;
      this.out = out;
    }
  }

  private static Run tool(String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = CheckpointTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(code, out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void lsVerifyAndGc(S3TestBucket bucket) throws Exception {
    Configuration conf = bucket.hadoopConfiguration();
    conf.set("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    conf.setBoolean("fs.ckpt.impl.disable.cache", true);
    String root = "ckpt://" + bucket.name() + "/";
    try (FileSystem fs = FileSystem.get(URI.create(root), conf)) {
      for (String f : List.of("q/offsets/0", "q/offsets/1", "q/commits/0")) {
        try (var out = fs.create(new Path(root + f), false)) {
          out.write("12345".getBytes(StandardCharsets.UTF_8));
        }
      }
    }
    Run ls = tool(args(bucket, "ls", root + "q"));
    assertEquals(0, ls.code, ls.out);
    assertTrue(ls.out.contains("5  /q/offsets/1") && ls.out.contains("dir  /q/commits/"), ls.out);
    assertTrue(ls.out.contains("3 directories, 3 files, 15 bytes"), ls.out);

    Run ok = tool(args(bucket, "verify", root));
    assertEquals(0, ok.code, ok.out);
    assertTrue(ok.out.contains("3 files (15 bytes): OK"), ok.out);

    // garbage: an unreferenced data object and manifest (a crashed writer), and an object that is not ours
    bucket.client().putObject(bucket.name(), "q/offsets/2~00112233445566ff", "orphan");
    bucket.client().putObject(bucket.name(), ".ckpt/dirs/deadbeef-orphan.json", "{}");
    bucket.client().putObject(bucket.name(), "q/offsets/unrelated.txt", "someone else's");
    Run dry = tool(args(bucket, "gc", root, "--min-age", "0", "--dry-run"));
    assertTrue(dry.out.contains("would delete 2 objects"), dry.out);
    assertEquals(3, bucket.listKeys("q/offsets/").size() - 1, bucket.listKeys("q/offsets/").toString());
    Run gc = tool(args(bucket, "gc", root, "--min-age", "0"));
    assertTrue(gc.out.contains("deleted 2 objects"), gc.out);
    assertFalse(bucket.listKeys("q/offsets/").contains("q/offsets/2~00112233445566ff"));
    assertTrue(bucket.listKeys("q/offsets/").contains("q/offsets/unrelated.txt"), "never touches what is not ours");
    assertEquals(0, tool(args(bucket, "verify", root)).code, "gc removed nothing live");

    // a data object deleted behind the file system's back is found
    String data = bucket.listKeys("q/commits/").get(0);
    bucket.client().deleteObject(bucket.name(), data);
    Run bad = tool(args(bucket, "verify", root));
    assertEquals(1, bad.code, bad.out);
    assertTrue(bad.out.contains("PROBLEM /q/commits/0: data object") && bad.out.contains("1 problems"), bad.out);

    assertEquals(2, tool("ls").code, "usage");
  }
}
