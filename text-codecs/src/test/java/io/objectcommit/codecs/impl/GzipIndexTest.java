package io.objectcommit.codecs.impl;

import static io.objectcommit.codecs.impl.SplitReading.assertSameLines;
import static io.objectcommit.codecs.impl.SplitReading.lines;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.codecs.CodecConstants;
import io.objectcommit.codecs.GzipIndexMismatchException;
import io.objectcommit.codecs.files.GzipIndex;
import io.objectcommit.store.files.CorruptRecordException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index of a plain gzip file ({@link GzipIndexBuilder}) and the units it gives ({@link GzipIndexDecoder}): each
 * checkpoint's unit decodes alone to the file's bytes there, one after another to the whole file, members and
 * blocks alike; split by Hadoop's LineRecordReader, every line is read exactly once.
 */
class GzipIndexTest {

  private static final long SPACING = 64 * 1024;

  @TempDir
  Path dir;

  private static GzipIndex index(byte[] gz) throws IOException {
    return GzipIndexBuilder.build(new ByteArrayInputStream(gz), gz.length, "\"etag-1\"", SPACING);
  }

  private static byte[] unit(byte[] gz, GzipIndex index, GzipIndexDecoder decoder, int i) throws IOException {
    long offset = index.checkpoints.get(i).byteOffset();
    int size = decoder.decode(offset, true);
    long next = i + 1 < index.checkpoints.size() ? index.checkpoints.get(i + 1).byteOffset() : gz.length;
    assertEquals(next - offset, size, "compressed size of the unit at " + offset);
    return Arrays.copyOf(decoder.data(), decoder.dataLength());
  }

  private static void assertUnits(byte[] gz, byte[] content, GzipIndex index) throws IOException {
    int n = index.checkpoints.size();
    for (int i = 0; i < n; i++) {
      GzipIndex.Checkpoint c = index.checkpoints.get(i);
      long to = i + 1 < n ? index.checkpoints.get(i + 1).out : content.length;
      SeekableBytes in = new SeekableBytes(gz);
      in.seek(c.byteOffset());
      try (GzipIndexDecoder alone = new GzipIndexDecoder(new BlockInput(in, c.byteOffset(), 64 * 1024), index, "t.gz")) {
        assertArrayEquals(Arrays.copyOfRange(content, (int) c.out, (int) to), unit(gz, index, alone, i),
            "the unit at checkpoint " + i + " (bit " + c.bit + ", member " + c.member + ") alone");
      }
    }
    try (GzipIndexDecoder all = new GzipIndexDecoder(new BlockInput(new SeekableBytes(gz), 0, 64 * 1024), index, "t.gz")) {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      for (int i = 0; i < n; i++) {
        out.write(unit(gz, index, all, i));
      }
      assertArrayEquals(content, out.toByteArray(), "every unit in turn");
      assertEquals(0, all.decode(gz.length, true), "the end");
    }
  }

  @Test
  void everyUnitDecodesAloneAndInTurn() throws IOException {
    byte[] content = InflaterAtBlockTest.content(7, 2_000_000);
    byte[] gz = InflaterAtBlockTest.gzip(content, 6);
    GzipIndex index = index(gz);
    assertEquals(content.length, index.uncompressedLength);
    assertTrue(index.checkpoints.size() > 20, index.checkpoints.size() + " checkpoints");
    assertTrue(index.checkpoints.stream().anyMatch(c -> c.bit % 8 != 0), "blocks inside bytes");
    for (int i = 1; i < index.checkpoints.size(); i++) {
      long gap = index.checkpoints.get(i).out - index.checkpoints.get(i - 1).out;
      assertTrue(gap >= SPACING, "spacing " + gap + " at checkpoint " + i);
    }
    assertUnits(gz, content, index);
  }

  @Test
  void membersAreCheckpointsToo() throws IOException {
    byte[] a = InflaterAtBlockTest.content(1, 300_000);
    byte[] b = InflaterAtBlockTest.content(2, 200_000);
    byte[] c = InflaterAtBlockTest.content(3, 30_000);
    byte[] gz = SplitReading.concat(InflaterAtBlockTest.gzip(a, 9), InflaterAtBlockTest.gzip(b, 1),
        InflaterAtBlockTest.gzip(c, 6));
    GzipIndex index = index(gz);
    assertTrue(index.checkpoints.stream().filter(k -> k.member).count() >= 2, "member starts among the checkpoints");
    assertUnits(gz, SplitReading.concat(a, b, c), index);
  }

  @Test
  void noCheckpointRightAfterACarriageReturn() throws IOException {
    byte[] content = SplitReading.text(9, 1_500_000, 50, "\r\n");
    GzipIndex index = index(InflaterAtBlockTest.gzip(content, 6));
    assertTrue(index.checkpoints.size() > 5);
    for (GzipIndex.Checkpoint c : index.checkpoints) {
      if (c.out > 0) {
        assertNotEquals('\r', content[(int) c.out - 1], "checkpoint at " + c.out + " follows a CR");
      }
    }
  }

  @Test
  void theIndexIsAVersionedRecord() throws IOException {
    byte[] gz = InflaterAtBlockTest.gzip(InflaterAtBlockTest.content(4, 500_000), 6);
    GzipIndex index = index(gz);
    byte[] json = GzipIndex.CODEC.toBytes(index);
    GzipIndex back = GzipIndex.CODEC.fromBytes(json, "x.gz.index");
    assertEquals(index.checkpoints.size(), back.checkpoints.size());
    assertEquals("\"etag-1\"", back.etag);
    assertEquals(index.uncompressedLength, back.uncompressedLength);
    assertArrayEquals(json, GzipIndex.CODEC.toBytes(back));

    // a checkpoint beyond the file's decoded length: refused when loaded, naming the object
    String shrunk = new String(json, java.nio.charset.StandardCharsets.UTF_8)
        .replaceFirst("\"uncompressedLength\":\\d+", "\"uncompressedLength\":10");
    CorruptRecordException e = assertThrows(CorruptRecordException.class,
        () -> GzipIndex.CODEC.fromBytes(shrunk.getBytes(java.nio.charset.StandardCharsets.UTF_8), "x.gz.index"));
    assertTrue(e.getMessage().contains("x.gz.index"), e.getMessage());
  }

  @Test
  void aUnitThatDecodesToOtherBytesIsRefused() throws IOException {
    byte[] content = InflaterAtBlockTest.content(5, 1_000_000);
    byte[] gz = InflaterAtBlockTest.gzip(content, 6);
    GzipIndex index = index(gz);
    GzipIndex.Checkpoint c = index.checkpoints.get(3);
    // the index's CRC of unit 3 is not that of the file's bytes there (as for a file changed in that unit)
    c.crc ^= 1;
    SeekableBytes in = new SeekableBytes(gz);
    in.seek(c.byteOffset());
    try (GzipIndexDecoder decoder = new GzipIndexDecoder(new BlockInput(in, c.byteOffset(), 64 * 1024), index,
        "t.gz")) {
      GzipIndexMismatchException e = assertThrows(GzipIndexMismatchException.class,
          () -> decoder.decode(c.byteOffset(), true));
      assertEquals("t.gz", e.file());
      assertEquals(c.byteOffset(), e.offset());
    }
    // the units before it are read
    c.crc ^= 1;
    assertUnits(gz, content, index);
  }

  @Test
  void anotherFilesIndexYieldsNoByte() throws IOException {
    byte[] content = InflaterAtBlockTest.content(6, 1_000_000);
    GzipIndex index = index(InflaterAtBlockTest.gzip(content, 6));
    byte[] other = InflaterAtBlockTest.gzip(content, 1);
    int refused = 0;
    for (int i = 1; i < index.checkpoints.size(); i++) {
      GzipIndex.Checkpoint c = index.checkpoints.get(i);
      if (c.byteOffset() >= other.length) {
        continue;
      }
      SeekableBytes in = new SeekableBytes(other);
      in.seek(c.byteOffset());
      try (GzipIndexDecoder decoder = new GzipIndexDecoder(new BlockInput(in, c.byteOffset(), 64 * 1024), index,
          "other.gz")) {
        assertThrows(IOException.class, () -> decoder.decode(c.byteOffset(), true), "checkpoint " + i);
        refused++;
      }
    }
    assertTrue(refused > 3, refused + " checkpoints tried");
  }

  @Test
  void splitsReadEveryLineExactlyOnce() throws IOException {
    byte[] content = SplitReading.text(11, 3_000_000, 5_000, "\n");
    byte[] gz = InflaterAtBlockTest.gzip(content, 6);
    Path file = dir.resolve("t.igz");
    Files.write(file, gz);
    IndexedGzipTestCodec.index = index(gz);
    Configuration conf = SplitReading.conf(false);
    conf.set(CodecConstants.HADOOP_CODECS, IndexedGzipTestCodec.class.getName());
    for (long splitSize : new long[] {gz.length, 300_000, 37_000, 4_096}) {
      SplitReading.Result r = SplitReading.readSplits(conf, file, splitSize);
      assertSameLines(lines(content), r.lines, "splits of " + splitSize);
      if (splitSize < gz.length / 4) {
        assertTrue(r.splitsWithRecords() > 3, r.splitsWithRecords() + " splits with records, of " + splitSize);
      }
    }
  }
}
