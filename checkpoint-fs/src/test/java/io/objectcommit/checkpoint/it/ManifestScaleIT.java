package io.objectcommit.checkpoint.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.CheckpointFileSystem;
import io.objectcommit.checkpoint.files.DirManifest;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scale: a directory of 10,000 entries and a namespace of 100,000 entries work, and the cost of one change grows
 * with the directory changed, not with the namespace. The namespace is laid down directly in the documented
 * on-store format (docs/checkpoint-format.md): writing 100,000 files one by one would only test LocalStack.
 */
@S3IntegrationTest
class ManifestScaleIT {

  private static final Logger LOG = LoggerFactory.getLogger(ManifestScaleIT.class);
  private static final int WIDE = 10_000;
  private static final int TREE_DIRS = 9;

  private static void putManifest(S3TestBucket bucket, DirManifest m) throws Exception {
    byte[] json = DirManifest.CODEC.toBytes(m);
    bucket.plain().putObject(bucket.name(), bucket.key(".ckpt/dirs/" + m.dirId + ".json"), json);
  }

  private static DirManifest filled(String id, String path, int n) {
    DirManifest m = DirManifest.empty(id, path);
    for (int i = 0; i < n; i++) {
      String name = String.format("%05d.delta", i);
      m.entries.put(name, DirManifest.Entry.file(path.substring(1) + "/" + name + "~0123456789abcdef", 1234, 1L));
    }
    return m;
  }

  private static long conditionalPutBytes(FileSystem fs) {
    IOStatistics s = ((CheckpointFileSystem) fs).getIOStatistics();
    return s.counters().get("op_put_conditional.bytes");
  }

  @Test
  void tenThousandEntriesInADirectoryAndAHundredThousandInTheNamespace(S3TestBucket bucket) throws Exception {
    DirManifest root = DirManifest.empty(DirManifest.ROOT_ID, "/");
    root.entries.put("wide", DirManifest.Entry.dir("wide", 1L));
    root.entries.put("tree", DirManifest.Entry.dir("tree", 1L));
    root.entries.put("small", DirManifest.Entry.dir("small", 1L));
    DirManifest tree = DirManifest.empty("tree", "/tree");
    for (int d = 0; d < TREE_DIRS; d++) {
      tree.entries.put("p" + d, DirManifest.Entry.dir("tree-" + d, 1L));
      putManifest(bucket, filled("tree-" + d, "/tree/p" + d, WIDE));
    }
    putManifest(bucket, tree);
    putManifest(bucket, filled("wide", "/wide", WIDE));
    putManifest(bucket, DirManifest.empty("small", "/small"));
    putManifest(bucket, root);

    Configuration conf = CkptTestSupport.conf(bucket.endpoint(), bucket);
    try (FileSystem fs = CkptTestSupport.fs(conf, bucket)) {
      String base = "ckpt://" + bucket.name() + "/";
      long t0 = System.nanoTime();
      assertEquals(WIDE, fs.listStatus(new Path(base + "wide")).length);
      int total = 0;
      for (int d = 0; d < TREE_DIRS; d++) {
        total += fs.listStatus(new Path(base + "tree/p" + d)).length;
      }
      assertEquals(WIDE * TREE_DIRS, total);
      assertEquals(1234, fs.getFileStatus(new Path(base + "tree/p8/09999.delta")).getLen());
      LOG.info("listed {} entries in {} ms", WIDE + total, (System.nanoTime() - t0) / 1_000_000);

      long before = conditionalPutBytes(fs);
      CkptTestSupport.write(fs, new Path(base + "wide/new.delta"), "x", false);
      long wideChange = conditionalPutBytes(fs) - before;

      before = conditionalPutBytes(fs);
      // larger than inline.max-file-size: a data object of its own, named below
      String large = "x".repeat(10_000);
      CkptTestSupport.write(fs, new Path(base + "small/new.delta"), large, false);
      long smallChange = conditionalPutBytes(fs) - before;
      LOG.info("bytes written by one change: {} in the 10,000-entry directory, {} in a small one", wideChange,
          smallChange);
      assertTrue(smallChange < 1_000, "a change in a small directory writes a small manifest: " + smallChange);
      assertTrue(wideChange < 2_000_000, "one change writes only its directory's manifest: " + wideChange);
      assertEquals(WIDE + 1, fs.listStatus(new Path(base + "wide")).length);
      assertEquals(large, CkptTestSupport.read(fs, new Path(base + "small/new.delta")));
      assertTrue(fs.delete(new Path(base + "wide/00042.delta"), false));
      assertEquals(WIDE, fs.listStatus(new Path(base + "wide")).length);
    }
    assertTrue(bucket.listKeys("").stream().anyMatch(k -> k.startsWith(bucket.key("small/new.delta~"))),
        "data objects keep the logical name readable");
  }
}
