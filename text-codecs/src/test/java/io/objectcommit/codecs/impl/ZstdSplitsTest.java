package io.objectcommit.codecs.impl;

import static io.objectcommit.codecs.impl.SplitReading.assertSameLines;
import static io.objectcommit.codecs.impl.SplitReading.conf;
import static io.objectcommit.codecs.impl.SplitReading.frameOffsets;
import static io.objectcommit.codecs.impl.SplitReading.lines;
import static io.objectcommit.codecs.impl.SplitReading.readSplits;
import static io.objectcommit.codecs.impl.SplitReading.text;
import static io.objectcommit.codecs.impl.SplitReading.unzstd;
import static io.objectcommit.codecs.impl.SplitReading.writeZstd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdOutputStream;
import io.objectcommit.codecs.CodecConstants;
import io.objectcommit.codecs.ZstdFormatException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every line of a zstd file is read exactly once, in order, whatever the splits: the union of the records of all
 * splits (Hadoop's LineRecordReader, as Spark reads text) equals the lines zstd-jni's stream finds in the file.
 * Seekable files are read split by frames; a one-frame (plain) file whole by the first split.
 */
class ZstdSplitsTest {

  @TempDir
  Path dir;

  private void assertExactForSizes(Path file, Configuration conf, long... sizes) throws IOException {
    List<String> expected = lines(unzstd(file));
    for (long size : sizes) {
      SplitReading.Result r = readSplits(conf, file, size);
      assertSameLines(expected, r.lines, file.getFileName() + " in splits of " + size + " bytes");
    }
  }

  private static List<long[]> splitsOf(long length, long size) {
    List<long[]> splits = new ArrayList<>();
    for (long s = 0; s < length; s += size) {
      splits.add(new long[] {s, Math.min(size, length - s)});
    }
    return splits;
  }

  @Test
  void smallFramesAnySplitSizeReadsEveryLineOnce() throws IOException {
    byte[] content = text(1, 12_000, 150, "\n");
    Path file = writeZstd(dir.resolve("small.seekable.zst"), content, 97);
    long length = Files.size(file);
    assertTrue(frameOffsets(Files.readAllBytes(file)).size() > 100, "many frames");
    assertSameLines(lines(content), lines(unzstd(file)), "zstd-jni");
    assertExactForSizes(file, conf(false), 1, 2, 3, 5, 13, 64, 100, 127, 500, 1000, 4096, length / 3, length - 1,
        length, length + 5);
    SplitReading.Result r = readSplits(conf(false), file, 500);
    assertTrue(r.splitsWithRecords() > 10, "records spread over the splits: " + r.perSplit);
  }

  @Test
  void splitsEndingExactlyAtFrameBoundariesOrOneByteAround() throws IOException {
    byte[] content = text(2, 20_000, 120, "\n");
    Path file = writeZstd(dir.resolve("bounds.seekable.zst"), content, 150);
    byte[] bytes = Files.readAllBytes(file);
    List<Long> frames = frameOffsets(bytes);
    List<String> expected = lines(content);
    for (int shift = -1; shift <= 1; shift++) {
      for (int every = 1; every <= 3; every++) {
        List<long[]> splits = new ArrayList<>();
        long start = 0;
        for (int f = every; f < frames.size(); f += every) {
          long boundary = frames.get(f) + shift;
          if (boundary > start) {
            splits.add(new long[] {start, boundary - start});
            start = boundary;
          }
        }
        splits.add(new long[] {start, bytes.length - start});
        for (boolean oldApi : new boolean[] {false, true}) {
          SplitReading.Result r = readSplits(conf(false), file, splits, oldApi);
          assertSameLines(expected, r.lines, "splits at every " + every + " frame boundaries " + shift
              + (oldApi ? " (mapred)" : " (mapreduce)"));
        }
      }
    }
  }

  @Test
  void aRecordStraddlingFramesIsReadOnceWhereverTheSplitEnds() throws IOException {
    // one line of 1,000 bytes over 10 frames of 100, between short lines
    String longLine = "x".repeat(1000);
    byte[] content = ("a\nb\n" + longLine + "\nc\nd\n").getBytes(StandardCharsets.UTF_8);
    Path file = writeZstd(dir.resolve("straddle.seekable.zst"), content, 100);
    List<String> expected = List.of("a", "b", longLine, "c", "d");
    assertSameLines(expected, lines(unzstd(file)), "zstd-jni");
    long length = Files.size(file);
    for (long cut = 1; cut < length; cut++) {
      List<long[]> splits = List.of(new long[] {0, cut}, new long[] {cut, length - cut});
      assertSameLines(expected, readSplits(conf(false), file, splits, false).lines, "two splits cut at " + cut);
    }
  }

  @Test
  void lastLineWithoutNewline() throws IOException {
    byte[] content = text(3, 5_000, 100, "\n");
    byte[] noNewline = SplitReading.concat(content, "the last line".getBytes(StandardCharsets.UTF_8));
    Path file = writeZstd(dir.resolve("last.seekable.zst"), noNewline, 128);
    List<String> expected = lines(unzstd(file));
    assertEquals("the last line", expected.get(expected.size() - 1));
    assertExactForSizes(file, conf(false), 1, 7, 100, 1000, Files.size(file));
  }

  @Test
  void crlfAndCrLineEndings() throws IOException {
    for (String eol : List.of("\r\n", "\r")) {
      byte[] content = text(4, 5_000, 100, eol);
      Path file = writeZstd(dir.resolve("eol" + eol.length() + ".seekable.zst"), content, 101);
      assertExactForSizes(file, conf(false), 1, 3, 50, 333, 4096);
    }
  }

  @Test
  void emptyFilesHaveNoLines() throws IOException {
    Path empty = dir.resolve("empty.seekable.zst");
    Files.write(empty, new byte[0]);
    assertEquals(List.of(), readSplits(conf(false), empty, 10).lines);
    Path onlyTable = writeZstd(dir.resolve("table-only.seekable.zst"), new byte[0], 100);
    assertEquals(17, Files.size(onlyTable), "just the seek table of no frame");
    for (long size : new long[] {1, 5, 17}) {
      assertEquals(List.of(), readSplits(conf(false), onlyTable, size).lines);
    }
  }

  @Test
  void defaultFramesWithALineLongerThanAFrameBothApis() throws IOException {
    byte[] content = SplitReading.concat(text(5, 1_500_000, 2_000, "\n"),
        ("y".repeat(1_500_000) + "\n").getBytes(StandardCharsets.UTF_8), text(6, 700_000, 2_000, "\n"));
    Path file = dir.resolve("default.seekable.zst");
    try (OutputStream out = new SeekableZstdOutputStream(Files.newOutputStream(file), 3,
        CodecConstants.ZSTD_FRAME_SIZE_DEFAULT)) {
      out.write(content);
    }
    List<String> expected = lines(content);
    assertSameLines(expected, lines(unzstd(file)), "zstd-jni");
    assertEquals(4, frameOffsets(Files.readAllBytes(file)).size(), "frames of 1 MiB");
    long length = Files.size(file);
    for (long size : new long[] {1_000, 65_536, 100_000, length / 3}) {
      for (boolean oldApi : new boolean[] {false, true}) {
        assertSameLines(expected, readSplits(conf(false), file, splitsOf(length, size), oldApi).lines,
            "splits of " + size + (oldApi ? " (mapred)" : " (mapreduce)"));
      }
    }
  }

  @Test
  void aPlainOneFrameZstdFileIsReadWholeByTheFirstSplit() throws IOException {
    // as zstd writes from a pipe: one frame without a content size (and a second such frame, as cat a b makes)
    byte[] content = text(7, 8_000, 300, "\n");
    Path file = dir.resolve("plain.zst");
    try (OutputStream out = new ZstdOutputStream(Files.newOutputStream(file))) {
      out.write(content);
    }
    Path twoFrames = dir.resolve("two.zst");
    Files.write(twoFrames, SplitReading.concat(Files.readAllBytes(file), Files.readAllBytes(file)));
    for (Path f : List.of(file, twoFrames)) {
      List<String> expected = lines(unzstd(f));
      long length = Files.size(f);
      for (long size : new long[] {1, 100, 1000, length / 3, length}) {
        SplitReading.Result r = readSplits(conf(false, true), f, size);
        assertSameLines(expected, r.lines, f.getFileName() + " in splits of " + size);
        assertEquals(expected.size(), (int) r.perSplit.get(0), "the first split reads every line");
      }
    }
  }

  @Test
  void aFirstFrameOverTheBoundIsReadWholeALaterOneFailsNamingItsOffset() throws IOException {
    // a frame of 9 MB declaring its content size: over the 8 MiB read split
    byte[] big = text(8, CodecConstants.ZSTD_MAX_FRAME_CONTENT + 500_000, 300, "\n");
    byte[] bigFrame = Zstd.compress(big, 1);
    Path first = dir.resolve("big-first.zst");
    Files.write(first, bigFrame);
    long length = Files.size(first);
    SplitReading.Result r = readSplits(conf(false, true), first, length / 3);
    assertSameLines(lines(big), r.lines, "a big first frame");
    assertEquals(List.of(lines(big).size(), 0, 0), r.perSplit.subList(0, 3), "read whole by the first split");

    Path small = writeZstd(dir.resolve("small.seekable.zst"), text(9, 3_000, 100, "\n"), 1000);
    byte[] smallBytes = Files.readAllBytes(small);
    // the seek table removed: the big frame directly follows the small frames
    int frames = smallBytes.length - SplitReading.seekTable(smallBytes).size() * 12 - 17;
    Path later = dir.resolve("big-later.zst");
    Files.write(later, SplitReading.concat(java.util.Arrays.copyOf(smallBytes, frames), bigFrame));
    ZstdFormatException e = assertThrows(ZstdFormatException.class,
        () -> readSplits(conf(false, true), later, Files.size(later)));
    assertEquals(frames, e.offset(), e.getMessage());
    assertTrue(e.getMessage().contains("at most " + CodecConstants.ZSTD_MAX_FRAME_CONTENT), e.getMessage());
  }

  /**
   * Frames as another writer may make them: concatenated one-shot frames of 64 KiB (content size declared, some
   * without checksum), no seek table, a skippable frame of user data in the middle.
   */
  @Test
  void framesOfAnotherWritersLayout() throws IOException {
    byte[] content = text(10, 600_000, 500, "\n");
    java.io.ByteArrayOutputStream file = new java.io.ByteArrayOutputStream();
    int k = 0;
    for (int off = 0; off < content.length; off += 65536, k++) {
      int n = Math.min(65536, content.length - off);
      try (com.github.luben.zstd.ZstdCompressCtx ctx = new com.github.luben.zstd.ZstdCompressCtx()) {
        ctx.setLevel(1 + k % 5);
        ctx.setChecksum(k % 2 == 0);
        ctx.setContentSize(true);
        file.writeBytes(ctx.compress(java.util.Arrays.copyOfRange(content, off, off + n)));
      }
      if (k == 3) {
        byte[] skippable = new byte[8 + 1000];
        BgzfFormat.put32(skippable, 0, 0x184D2A53L);
        BgzfFormat.put32(skippable, 4, 1000);
        // user data that looks like frames
        for (int i = 8; i + 4 <= skippable.length; i += 4) {
          BgzfFormat.put32(skippable, i, ZstdFormat.FRAME_MAGIC);
        }
        file.writeBytes(skippable);
      }
    }
    Path path = dir.resolve("foreign.zst");
    Files.write(path, file.toByteArray());
    assertSameLines(lines(content), lines(unzstd(path)), "zstd-jni");
    assertExactForSizes(path, conf(false, true), 1_000, 30_000, 65_536, 100_000);
  }

  @Test
  void aCorruptFrameFailsNamingItsOffset() throws IOException {
    Path file = writeZstd(dir.resolve("corrupt.seekable.zst"), text(11, 3_000, 100, "\n"), 300);
    byte[] bytes = Files.readAllBytes(file);
    List<Long> frames = frameOffsets(bytes);
    // the checksum of the second frame: only the checksum tells
    int inSecondFrameChecksum = (int) (frames.get(2) - 2);
    bytes[inSecondFrameChecksum] ^= 0x55;
    Files.write(file, bytes);
    ZstdFormatException e = assertThrows(ZstdFormatException.class,
        () -> readSplits(conf(false), file, Files.size(file)));
    assertEquals(frames.get(1), e.offset(), e.getMessage());
    // a split starting after the damage does not take the damaged frame for its first
    long from = frames.get(1) + 1;
    List<long[]> splits = List.of(new long[] {from, bytes.length - from});
    List<String> read = readSplits(conf(false), file, splits, false).lines;
    List<String> after = lines(unzstdFrom(bytes, frames.get(2).intValue()));
    assertSameLines(after.subList(1, after.size()), read, "a split after the damaged frame");
  }

  private static byte[] unzstdFrom(byte[] bytes, int offset) throws IOException {
    try (java.io.InputStream in = new com.github.luben.zstd.ZstdInputStream(
        new java.io.ByteArrayInputStream(bytes, offset, bytes.length - offset))) {
      return in.readAllBytes();
    }
  }
}
