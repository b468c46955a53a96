package io.objectcommit.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.impl.ManifestInspector;
import io.objectcommit.testsupport.PlainS3;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** The maintenance operations (objectcommit checkpoint ls|verify|gc): what each finds, what gc never touches. */
@S3IntegrationTest
class CheckpointMaintenanceIT {

  private interface Op {
    void run(CheckpointMaintenance m, PrintStream out) throws IOException;
  }

  private static String run(Configuration conf, String path, Op op) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new Path(path), conf)) {
      op.run(m, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void lsVerifyAndGc(S3TestBucket bucket) throws Exception {
    Configuration conf = bucket.hadoopConfiguration();
    conf.set("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    conf.setBoolean("fs.ckpt.impl.disable.cache", true);
    String root = "ckpt://" + bucket.name() + "/";
    try (FileSystem fs = FileSystem.get(URI.create(root), conf)) {
      // two small files, kept in their directory's manifest, and one with a data object of its own
      for (String f : List.of("q/offsets/0", "q/offsets/1")) {
        try (var out = fs.create(new Path(root + f), false)) {
          out.write("12345".getBytes(StandardCharsets.UTF_8));
        }
      }
      try (var out = fs.create(new Path(root + "q/commits/0"), false)) {
        out.write(new byte[10_000]);
      }
    }
    String ls = run(conf, root + "q", (m, out) -> m.ls(out));
    assertTrue(ls.contains("5  /q/offsets/1") && ls.contains("dir  /q/commits/"), ls);
    assertTrue(ls.contains("3 directories, 3 files, 10010 bytes"), ls);

    String ok = run(conf, root, (m, out) -> assertEquals(List.of(), m.verify(out)));
    assertTrue(ok.contains("3 files (10010 bytes): OK"), ok);

    // garbage: an unreferenced data object and manifest (a crashed writer), what an interrupted store guarantee
    // check left, and an object that is not ours
    bucket.plain().putObject(bucket.name(), "q/offsets/2~00112233445566ff", "orphan");
    bucket.plain().putObject(bucket.name(), ".ckpt/dirs/deadbeef-orphan.json", "{}");
    bucket.plain().putObject(bucket.name(), ".ckpt/probe/check-0f0e0d0c/inm-put", "a check's object");
    bucket.plain().putObject(bucket.name(), "q/offsets/unrelated.txt", "someone else's");
    String dry = run(conf, root, (m, out) -> m.gc(Duration.ZERO, true, out));
    assertTrue(dry.contains("would delete 3 objects"), dry);
    assertEquals(2, bucket.listKeys("q/offsets/").size(), "the two planted objects: the files are inline: "
        + bucket.listKeys("q/offsets/"));
    String gc = run(conf, root, (m, out) -> m.gc(Duration.ZERO, false, out));
    assertTrue(gc.contains("deleted 3 objects"), gc);
    assertTrue(gc.contains("0 noncurrent versions (0 bytes) and 0 delete markers under s3://" + bucket.name() + "/"),
        "an unversioned bucket keeps none: " + gc);
    assertFalse(gc.contains("lifecycle rule"), gc);
    assertEquals(List.of(), bucket.listKeys(".ckpt/probe/"));
    assertFalse(bucket.listKeys("q/offsets/").contains("q/offsets/2~00112233445566ff"));
    assertTrue(bucket.listKeys("q/offsets/").contains("q/offsets/unrelated.txt"), "never touches what is not ours");
    run(conf, root, (m, out) -> assertEquals(List.of(), m.verify(out), "gc removed nothing live"));

    // a data object deleted behind the file system's back is found
    String data = bucket.listKeys("q/commits/").get(0);
    bucket.plain().deleteObject(bucket.name(), data);
    String bad = run(conf, root, (m, out) -> assertEquals(1, m.verify(out).size()));
    assertTrue(bad.contains("PROBLEM /q/commits/0: data object") && bad.contains("1 problems"), bad);

    IllegalArgumentException notCkpt = assertThrows(IllegalArgumentException.class,
        () -> CheckpointMaintenance.open(new Path("file://localhost/tmp/q"), conf));
    assertTrue(notCkpt.getMessage().contains("is not on the checkpoint FileSystem (fs.file.impl is"),
        notCkpt.getMessage());
    assertThrows(IllegalArgumentException.class, () -> CheckpointMaintenance.open(new Path("/tmp/q"), conf),
        "no scheme, no authority");
  }

  /**
   * On a versioned bucket every manifest replaced and every object deleted stays as a noncurrent version (a delete
   * also leaves a marker): gc counts those of the namespace's objects, as ListObjectVersions does, skips keys
   * that are not ours, and deletes none of them.
   */
  @Test
  void gcCountsNoncurrentVersionsAndDeleteMarkersOnAVersionedBucket(S3TestBucket bucket) throws Exception {
    bucket.enableVersioning();
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
      assertTrue(fs.delete(new Path(root + "q/offsets/0"), false));
    }
    bucket.plain().putObject(bucket.name(), "q/offsets/2~00112233445566ff", "orphan");
    bucket.plain().putObject(bucket.name(), "other/x.txt", "not ours");
    bucket.plain().putObject(bucket.name(), "other/x.txt", "not ours, replaced");
    bucket.plain().deleteObject(bucket.name(), "other/x.txt");

    String gc = run(conf, root, (m, out) -> m.gc(Duration.ZERO, false, out));
    assertTrue(gc.contains("deleted 1 objects"), gc);
    List<PlainS3.Version> ours = bucket.plain().listVersions(bucket.name(), "").stream()
        .filter(v -> !v.key().startsWith("other/")).collect(Collectors.toList());
    long noncurrent = ours.stream().filter(v -> !v.latest() && !v.deleteMarker()).count();
    long bytes = ours.stream().filter(v -> !v.latest() && !v.deleteMarker()).mapToLong(PlainS3.Version::size).sum();
    long markers = ours.stream().filter(PlainS3.Version::deleteMarker).count();
    // the data objects of the deleted file and of the orphan gc deleted: a marker and a noncurrent version each
    assertTrue(markers >= 2, ours.toString());
    // 3 files written, 1 deleted (each a manifest replaced), 3 directories made (each a parent manifest replaced)
    assertTrue(noncurrent >= 2 + 7, ours.toString());
    assertTrue(gc.contains(noncurrent + " noncurrent versions (" + bytes + " bytes) and " + markers
        + " delete markers under s3://" + bucket.name() + "/"), gc + "\n" + ours);
    assertTrue(gc.contains("gc does not delete noncurrent versions or delete markers"), gc);
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new Path(root + "q"), conf)) {
      ManifestInspector.Versions again = m.versions();
      assertEquals(noncurrent, again.noncurrent, "the whole namespace, whatever the path");
      assertEquals(markers, again.deleteMarkers);
    }
    assertEquals(ours, bucket.plain().listVersions(bucket.name(), "").stream()
        .filter(v -> !v.key().startsWith("other/")).collect(Collectors.toList()), "counting deletes nothing");
    run(conf, root, (m, out) -> assertEquals(List.of(), m.verify(out)));
  }
}
