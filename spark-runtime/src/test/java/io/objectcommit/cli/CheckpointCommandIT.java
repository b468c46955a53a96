package io.objectcommit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.CheckpointFileSystem;
import io.objectcommit.testsupport.PlainS3;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** objectcommit checkpoint ls|verify|gc against S3, settings given by --conf, -D key=value and -Dkey=value. */
@S3IntegrationTest
@Tag(TestTags.COMMAND)
class CheckpointCommandIT {

  @Test
  void lsVerifyGc(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    Configuration conf = bucket.hadoopConfiguration();
    conf.set("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    conf.setBoolean("fs.ckpt.impl.disable.cache", true);
    String root = "ckpt://" + bucket.name() + "/";
    try (FileSystem fs = FileSystem.get(URI.create(root), conf)) {
      // a small file, kept in its directory's manifest, and one with a data object of its own
      try (var out = fs.create(new org.apache.hadoop.fs.Path(root + "q/offsets/0"), false)) {
        out.write("12345".getBytes(StandardCharsets.UTF_8));
      }
      try (var out = fs.create(new org.apache.hadoop.fs.Path(root + "q/commits/0"), false)) {
        out.write(new byte[10_000]);
      }
    }
    List<String> settings = CommandRun.settings(bucket, dir);

    CommandRun ls = CommandRun.of(args(settings, "checkpoint", "ls", root + "q"));
    assertEquals(0, ls.code, ls.toString());
    assertTrue(ls.out.contains("5  /q/offsets/0") && ls.out.contains("3 directories, 2 files, 10005 bytes"),
        ls.toString());

    CommandRun verify = CommandRun.of(args(settings, "checkpoint", "verify", root));
    assertEquals(0, verify.code, verify.toString());
    assertTrue(verify.out.contains("2 files (10005 bytes): OK"), verify.toString());

    bucket.plain().putObject(bucket.name(), "q/offsets/1~00112233445566ff", "orphan");
    CommandRun dry = CommandRun.of(args(settings, "checkpoint", "gc", root, "--min-age", "0s", "--dry-run"));
    assertEquals(0, dry.code, dry.toString());
    assertTrue(dry.out.contains("would delete 1 objects"), dry.toString());
    CommandRun young = CommandRun.of(args(settings, "checkpoint", "gc", root));
    assertTrue(young.out.contains("deleted 0 objects"), "default --min-age 1h keeps a new object: " + young);
    CommandRun gc = CommandRun.of(args(settings, "checkpoint", "gc", root, "--min-age=0s"));
    assertTrue(gc.out.contains("deleted 1 objects"), gc.toString());
    assertTrue(gc.out.contains("0 noncurrent versions (0 bytes) and 0 delete markers"), gc.toString());
    assertFalse(bucket.listKeys("q/offsets/").contains("q/offsets/1~00112233445566ff"));

    bucket.plain().deleteObject(bucket.name(), bucket.listKeys("q/commits/").get(0));
    CommandRun bad = CommandRun.of(args(settings, "checkpoint", "verify", root));
    assertEquals(1, bad.code, "problems found: exit code 1\n" + bad);
    assertTrue(bad.out.contains("PROBLEM /q/commits/0"), bad.toString());

    CommandRun notCkpt = CommandRun.of(args(settings, "checkpoint", "ls", bucket.s3a("q")));
    assertEquals(2, notCkpt.code, notCkpt.toString());
    assertTrue(notCkpt.err.contains("is not on the checkpoint FileSystem"), notCkpt.toString());
  }

  @Test
  void gcReportsWhatAVersionedBucketKeepsAndDeletesNoneOfIt(S3TestBucket bucket, @TempDir Path dir)
      throws Exception {
    bucket.enableVersioning();
    Configuration conf = bucket.hadoopConfiguration();
    conf.set("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    conf.setBoolean("fs.ckpt.impl.disable.cache", true);
    String root = "ckpt://" + bucket.name() + "/";
    try (FileSystem fs = FileSystem.get(URI.create(root), conf)) {
      for (String f : List.of("q/offsets/0", "q/commits/0")) {
        try (var out = fs.create(new org.apache.hadoop.fs.Path(root + f), false)) {
          out.write("12345".getBytes(StandardCharsets.UTF_8));
        }
      }
      fs.delete(new org.apache.hadoop.fs.Path(root + "q/commits/0"), false);
    }
    List<PlainS3.Version> before = bucket.plain().listVersions(bucket.name(), "");
    long noncurrent = before.stream().filter(v -> !v.latest() && !v.deleteMarker()).count();
    long markers = before.stream().filter(PlainS3.Version::deleteMarker).count();
    assertTrue(noncurrent > 0 && markers > 0, before.toString());

    CommandRun gc = CommandRun.of(args(CommandRun.settings(bucket, dir), "checkpoint", "gc", root, "--min-age=0s"));
    assertEquals(0, gc.code, gc.toString());
    assertTrue(gc.out.contains("deleted 0 objects"), gc.toString());
    assertTrue(gc.out.contains(noncurrent + " noncurrent versions (") && gc.out.contains(") and " + markers
        + " delete markers under s3://" + bucket.name() + "/"), gc + "\n" + before);
    assertTrue(gc.out.contains("gc does not delete noncurrent versions or delete markers: on a versioned bucket a"
        + " lifecycle rule expires them"), gc.toString());
    assertEquals(before, bucket.plain().listVersions(bucket.name(), ""), "gc deleted no version");
  }

  /**
   * checkpoint import: a dry run writes nothing; a source written moments ago is refused (exit code 1, the file
   * named); with --idle 0s it is imported, and a second run writes nothing.
   */
  @Test
  void importAdoptsACheckpointOfTheSameBucket(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    for (String f : List.of("metadata", "offsets/0", "commits/0", "sources/0/0", "state/0/0/1.delta")) {
      bucket.plain().putObject(bucket.name(), bucket.key("old/q/" + f), "content of " + f);
    }
    List<String> settings = CommandRun.settings(bucket, dir);
    String source = bucket.s3a("old/q");
    String target = "ckpt://" + bucket.name() + "/new/q";

    CommandRun dry = CommandRun.of(args(settings, "checkpoint", "import", source, target, "--dry-run", "--idle=0s"));
    assertEquals(0, dry.code, dry.toString());
    assertTrue(dry.out.contains("5 files, ") && dry.out.contains("dry run: nothing written"), dry.toString());
    assertTrue(bucket.listKeys(".ckpt/dirs/import-").isEmpty(), dry.toString());

    CommandRun fresh = CommandRun.of(args(settings, "checkpoint", "import", source, target));
    assertEquals(1, fresh.code, fresh.toString());
    assertTrue(fresh.err.contains("import refused, nothing written:") && fresh.err.contains(" s ago, less than the"
        + " idle time (300 s)") && fresh.err.contains("--force"), fresh.toString());

    CommandRun imported = CommandRun.of(args(settings, "checkpoint", "import", source, target, "--idle", "0s"));
    assertEquals(0, imported.code, imported.toString());
    assertTrue(imported.out.contains("imported: ") && imported.out.contains("5 files"), imported.toString());
    CommandRun again = CommandRun.of(args(settings, "checkpoint", "import", source, target, "--idle", "0s"));
    assertEquals(0, again.code, again.toString());
    assertTrue(again.out.contains("already imported"), again.toString());

    CommandRun ls = CommandRun.of(args(settings, "checkpoint", "ls", target));
    assertTrue(ls.out.contains("/new/q/state/0/0/1.delta"), ls.toString());
    CommandRun verify = CommandRun.of(args(settings, "checkpoint", "verify", target));
    assertEquals(0, verify.code, verify.toString());
  }

  static List<String> args(List<String> settings, String... rest) {
    List<String> a = new ArrayList<>(List.of(rest));
    a.addAll(settings);
    return a;
  }
}
