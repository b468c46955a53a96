package io.objectcommit.codecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.codecs.files.GzipIndex;
import io.objectcommit.codecs.impl.GzipIndexSplitsTesting;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Indexes beside their files ({@link GzipIndexes}) and the BGZF codec reading a plain gzip file with its index in
 * splits, as a Spark task opens them (Spark's record of the task's file set per split): every line once, read by
 * many splits; without Spark's record, with the setting {@code ignore} or without an index, by the first split alone.
 */
class GzipIndexesTest {

  @TempDir
  Path dir;

  private Path gzipFile(String name, byte[] content) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(content);
    }
    Path file = dir.resolve(name);
    Files.write(file, bytes.toByteArray());
    return file;
  }

  private static Configuration conf(String useIndex) {
    Configuration conf = GzipIndexSplitsTesting.conf();
    conf.set(CodecConstants.GZIP_INDEX, useIndex);
    conf.setInt(CodecConstants.GZIP_INDEX_SPACING, CodecConstants.GZIP_INDEX_MIN_SPACING);
    return conf;
  }

  @Test
  void theIndexIsWrittenBesideItsFileUnderAHiddenName() throws IOException {
    byte[] content = GzipIndexSplitsTesting.text(3, 6_000_000);
    Path file = gzipFile("a.gz", content);
    org.apache.hadoop.fs.Path hadoopFile = new org.apache.hadoop.fs.Path(file.toUri());
    GzipIndex index = GzipIndexes.write(hadoopFile, conf("use"));
    assertTrue(Files.exists(dir.resolve(".a.gz.gzindex")));
    assertEquals(content.length, index.uncompressedLength);
    assertTrue(index.checkpoints.size() >= 4, index.checkpoints.size() + " checkpoints");
    assertEquals(index.checkpoints.size(), GzipIndexes.find(hadoopFile, conf("use")).orElseThrow().checkpoints.size());

    // the file replaced by another: its old index is not used
    gzipFile("a.gz", GzipIndexSplitsTesting.text(4, 6_100_000));
    assertTrue(GzipIndexes.find(hadoopFile, conf("use")).isEmpty());
    // no index at all
    assertTrue(GzipIndexes.find(new org.apache.hadoop.fs.Path(gzipFile("b.gz", content).toUri()), conf("use"))
        .isEmpty());
  }

  @Test
  void splitsInSparkTasksReadEveryLineOnceWithTheIndex() throws IOException {
    byte[] content = GzipIndexSplitsTesting.text(5, 8_000_000);
    Path file = gzipFile("t.gz", content);
    GzipIndexes.write(new org.apache.hadoop.fs.Path(file.toUri()), conf("use"));
    long split = Files.size(file) / 6;

    GzipIndexSplitsTesting.Read withIndex = GzipIndexSplitsTesting.read(conf("use"), file, split, true);
    GzipIndexSplitsTesting.assertSameLines(content, withIndex.lines());
    assertTrue(withIndex.splitsWithRecords() >= 4, withIndex.splitsWithRecords() + " splits read records");

    for (Configuration c : List.of(conf("ignore"), conf("use"))) {
      // with the setting ignore, or outside a Spark task: the first split reads the whole file
      boolean inSpark = c.get(CodecConstants.GZIP_INDEX).equals("ignore");
      GzipIndexSplitsTesting.Read whole = GzipIndexSplitsTesting.read(c, file, split, inSpark);
      GzipIndexSplitsTesting.assertSameLines(content, whole.lines());
      assertEquals(1, whole.splitsWithRecords());
    }
  }
}
