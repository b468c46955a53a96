package io.objectcommit.codecs.impl;

import static io.objectcommit.codecs.impl.SplitReading.assertSameLines;
import static io.objectcommit.codecs.impl.SplitReading.lines;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.codecs.CodecConstants;
import io.objectcommit.codecs.GzipIndexes;
import io.objectcommit.codecs.files.GzipIndex;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.LineRecordReader;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.spark.rdd.InputFileBlockHolder$;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The splits of a file on a store read as S3A reads S3 ({@link RangeRequestingFileSystem}) ask for the file's bytes
 * about once in all ({@link CodecConstants#BOUNDED_READS}): each split its own range and little more (the first
 * header at 0, the unit after its end), where Hadoop's stream would ask each split's request to run to the end of the
 * file. Every line is still read once.
 */
class BoundedReadsTest {

  /** What a split may ask for beyond its own bytes: the header probe, the unit after its end, a few growing tails. */
  private static final long PER_SPLIT = RangedInput.PROBE + 6L * RangedInput.MIN_TAIL;

  @TempDir
  Path dir;

  @BeforeEach
  void reset() {
    RangeRequestingFileSystem.reset();
  }

  @AfterEach
  void unset() {
    InputFileBlockHolder$.MODULE$.unset();
  }

  private static Configuration conf(boolean bounded) {
    Configuration conf = SplitReading.conf(true, true);
    RangeRequestingFileSystem.register(conf);
    conf.setBoolean(CodecConstants.BOUNDED_READS, bounded);
    return conf;
  }

  /** Reads {@code file} in {@code splits} splits as a Spark task does (the task names its split); its lines. */
  private static List<String> readAsSparkTasks(Configuration conf, org.apache.hadoop.fs.Path file, long length,
      int splits) throws IOException {
    List<String> lines = new ArrayList<>();
    long size = length / splits + 1;
    for (long start = 0; start < length; start += size) {
      long len = Math.min(size, length - start);
      InputFileBlockHolder$.MODULE$.set(file.toString(), start, len);
      try (LineRecordReader reader = new LineRecordReader()) {
        reader.initialize(new FileSplit(file, start, len, new String[0]),
            new TaskAttemptContextImpl(conf, new TaskAttemptID()));
        while (reader.nextKeyValue()) {
          lines.add(reader.getCurrentValue().toString());
        }
      }
    }
    return lines;
  }

  /**
   * Reads {@code file} in {@code splits} splits with bounded reads, then without: the same lines; bounded, the
   * requests ask for at most the file and, per split, {@link #PER_SPLIT} and {@code perSplit} more bytes.
   */
  private void assertBounded(Path file, byte[] content, int splits, long perSplit, Configuration extra)
      throws IOException {
    String name = file.getFileName().toString();
    long length = Files.size(file);
    Configuration conf = conf(true);
    extra.forEach(e -> conf.set(e.getKey(), e.getValue()));
    List<String> read = readAsSparkTasks(conf, RangeRequestingFileSystem.of(file), length, splits);
    assertSameLines(lines(content), read, file.getFileName().toString());
    long bounded = RangeRequestingFileSystem.requestedBytes(name);
    assertTrue(bounded >= length, bounded + " bytes asked for, the file has " + length);
    assertTrue(bounded <= length + splits * (PER_SPLIT + perSplit), "bounded reads asked for " + bounded
        + " bytes of a file of " + length + " in " + splits + " splits: " + RangeRequestingFileSystem.requests(name));

    RangeRequestingFileSystem.reset();
    Configuration off = conf(false);
    extra.forEach(e -> off.set(e.getKey(), e.getValue()));
    assertSameLines(lines(content), readAsSparkTasks(off, RangeRequestingFileSystem.of(file), length, splits),
        file.getFileName() + ", bounded reads off");
    long stream = RangeRequestingFileSystem.requestedBytes(name);
    assertTrue(stream > 2 * length, "Hadoop's stream asks each split's request to run to the end: " + stream);
  }

  @Test
  void bgzfSplitsAskForTheirOwnBlocks() throws IOException {
    byte[] content = SplitReading.text(41, 4_000_000, 3_000, "\n");
    // under .gz, which the codec takes in these tests' configuration
    Path file = SplitReading.writeBgzf(dir.resolve("t.gz"), content, 16_000);
    assertBounded(file, content, 8, 0, new Configuration(false));
  }

  @Test
  void seekableZstdSplitsAskForTheirOwnFrames() throws IOException {
    byte[] content = SplitReading.text(42, 4_000_000, 3_000, "\n");
    Path file = SplitReading.writeZstd(dir.resolve("t.seekable.zst"), content, 64 * 1024);
    assertBounded(file, content, 8, 0, new Configuration(false));
  }

  @Test
  void indexedGzipSplitsAskForTheirOwnUnits() throws IOException {
    byte[] content = SplitReading.text(43, 12_000_000, 3_000, "\n");
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write(content);
    }
    Path file = Files.write(dir.resolve("t.gz"), gz.toByteArray());
    Configuration index = new Configuration(false);
    index.set(CodecConstants.GZIP_INDEX, "use");
    index.setInt(CodecConstants.GZIP_INDEX_SPACING, CodecConstants.GZIP_INDEX_MIN_SPACING);
    Configuration write = conf(true);
    write.setInt(CodecConstants.GZIP_INDEX_SPACING, CodecConstants.GZIP_INDEX_MIN_SPACING);
    GzipIndex written = GzipIndexes.write(new org.apache.hadoop.fs.Path(file.toUri()), write);
    // the unit after a split's end is read whole: it holds the end of the split's last line
    long largestUnit = 0;
    for (int i = 1; i < written.checkpoints.size(); i++) {
      largestUnit = Math.max(largestUnit,
          written.checkpoints.get(i).byteOffset() - written.checkpoints.get(i - 1).byteOffset());
    }
    assertBounded(file, content, 3, largestUnit, index);

    GzipIndexCache.jvm().clear();
    RangeRequestingFileSystem.reset();
    Configuration conf = conf(true);
    index.forEach(e -> conf.set(e.getKey(), e.getValue()));
    readAsSparkTasks(conf, RangeRequestingFileSystem.of(file), Files.size(file), 3);
    String indexName = GzipIndexes.indexPath(RangeRequestingFileSystem.of(file)).getName();
    assertEquals(1, RangeRequestingFileSystem.requests(indexName).size(),
        "the three splits read the index once, then from this JVM's cache");
  }

  @Test
  void aSplitThatIsTheWholeFileReadsHadoopsStream() throws IOException {
    byte[] content = SplitReading.text(44, 300_000, 3_000, "\n");
    Path file = SplitReading.writeBgzf(dir.resolve("one.gz"), content, 16_000);
    long length = Files.size(file);
    assertSameLines(lines(content), readAsSparkTasks(conf(true), RangeRequestingFileSystem.of(file), length, 1),
        "one split");
    assertEquals(List.of("one.gz[0, " + length + ")"),
        RangeRequestingFileSystem.requests("one.gz").stream().map(Object::toString).collect(Collectors.toList()),
        "one request, to the end of the file, which the split reads whole: no second stream, no HEAD of its own");
  }

  @Test
  void aStreamThatTakesNoReadaheadIsReadAsHadoopOpenedIt() throws IOException {
    Path file = Files.write(dir.resolve("plain.bgz"), new byte[] {1, 2, 3});
    Configuration conf = SplitReading.conf(true);
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toUri());
    InputFileBlockHolder$.MODULE$.set(path.toString(), 0, 3);
    try (FSDataInputStream given = FileSystem.get(path.toUri(), conf).open(path)) {
      InputStream in = RangedInput.open(given, 0, 3, conf, CodecOptions.from(conf));
      assertSame(given, in, "the local file system's stream takes no read-ahead: nothing to bound");
    }
  }

  @Test
  void theReadaheadReachesTheExpectedEndThenGrows() throws IOException {
    Path file = Files.write(dir.resolve("ten"), new byte[10]);
    FSDataInputStream own = FileSystem.get(RangeRequestingFileSystem.of(file).toUri(), conf(true))
        .open(RangeRequestingFileSystem.of(file));
    RangedInput in = new RangedInput(own, () -> { });
    RangedInput.expect(in, 1_000_000);
    assertEquals(1_000_000, in.readaheadAt(0));
    assertEquals(400_000, in.readaheadAt(600_000));
    assertEquals(RangedInput.MIN_TAIL, in.readaheadAt(1_000_000));
    assertEquals(RangedInput.MIN_TAIL, in.readaheadAt(1_000_000 + RangedInput.MIN_TAIL));
    assertEquals(3L * RangedInput.MIN_TAIL, in.readaheadAt(1_000_000 + 3L * RangedInput.MIN_TAIL));
  }
}
