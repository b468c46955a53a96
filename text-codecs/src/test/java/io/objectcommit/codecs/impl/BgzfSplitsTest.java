package io.objectcommit.codecs.impl;

import static io.objectcommit.codecs.impl.SplitReading.assertSameLines;
import static io.objectcommit.codecs.impl.SplitReading.blockOffsets;
import static io.objectcommit.codecs.impl.SplitReading.conf;
import static io.objectcommit.codecs.impl.SplitReading.gunzip;
import static io.objectcommit.codecs.impl.SplitReading.lines;
import static io.objectcommit.codecs.impl.SplitReading.readSplits;
import static io.objectcommit.codecs.impl.SplitReading.text;
import static io.objectcommit.codecs.impl.SplitReading.writeBgzf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.codecs.BgzfFormatException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every line of a BGZF file is read exactly once, in order, whatever the splits: the union of the records of all
 * splits (Hadoop's LineRecordReader, as Spark reads text) equals the lines java.util.zip finds in the file.
 */
class BgzfSplitsTest {

  @TempDir
  Path dir;

  private void assertExactForSizes(Path file, Configuration conf, long... sizes) throws IOException {
    List<String> expected = lines(gunzip(file));
    for (long size : sizes) {
      SplitReading.Result r = readSplits(conf, file, size);
      assertSameLines(expected, r.lines, "splits of " + size + " bytes");
    }
  }

  @Test
  void smallBlocksAnySplitSizeReadsEveryLineOnce() throws IOException {
    byte[] content = text(1, 12_000, 150, "\n");
    Path file = writeBgzf(dir.resolve("small.bgz"), content, 97);
    long length = Files.size(file);
    assertTrue(blockOffsets(Files.readAllBytes(file)).size() > 100, "many blocks");
    assertExactForSizes(file, conf(false), 1, 2, 3, 5, 13, 64, 100, 127, 500, 1000, 4096, length / 3, length - 1,
        length, length + 5);
    SplitReading.Result r = readSplits(conf(false), file, 500);
    assertTrue(r.splitsWithRecords() > 10, "records spread over the splits: " + r.perSplit);
  }

  @Test
  void splitsEndingExactlyAtBlockBoundariesOrOneByteAround() throws IOException {
    byte[] content = text(2, 20_000, 120, "\n");
    Path file = writeBgzf(dir.resolve("bounds.bgz"), content, 150);
    byte[] bytes = Files.readAllBytes(file);
    List<Long> blocks = blockOffsets(bytes);
    List<String> expected = lines(content);
    assertSameLines(expected, lines(gunzip(file)), "java.util.zip");
    for (int shift = -1; shift <= 1; shift++) {
      for (int every = 1; every <= 3; every++) {
        List<long[]> splits = new ArrayList<>();
        long start = 0;
        for (int b = every; b < blocks.size(); b += every) {
          long boundary = blocks.get(b) + shift;
          if (boundary > start) {
            splits.add(new long[] {start, boundary - start});
            start = boundary;
          }
        }
        splits.add(new long[] {start, bytes.length - start});
        for (boolean oldApi : new boolean[] {false, true}) {
          SplitReading.Result r = readSplits(conf(false), file, splits, oldApi);
          assertSameLines(expected, r.lines, "splits at every " + every + " block boundaries " + shift
              + (oldApi ? " (mapred)" : " (mapreduce)"));
        }
      }
    }
  }

  @Test
  void aRecordStraddlingBlocksIsReadOnceWhereverTheSplitEnds() throws IOException {
    // one line of 1,000 bytes over 10 blocks of 100, between short lines
    String longLine = "x".repeat(1000);
    byte[] content = ("a\nb\n" + longLine + "\nc\nd\n").getBytes(StandardCharsets.UTF_8);
    Path file = writeBgzf(dir.resolve("straddle.bgz"), content, 100);
    List<String> expected = List.of("a", "b", longLine, "c", "d");
    assertSameLines(expected, lines(gunzip(file)), "java.util.zip");
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
    Path file = writeBgzf(dir.resolve("last.bgz"), noNewline, 128);
    List<String> expected = lines(gunzip(file));
    assertEquals("the last line", expected.get(expected.size() - 1));
    assertExactForSizes(file, conf(false), 1, 7, 100, 1000, Files.size(file));
  }

  @Test
  void crlfAndCrLineEndings() throws IOException {
    for (String eol : List.of("\r\n", "\r")) {
      byte[] content = text(4, 5_000, 100, eol);
      Path file = writeBgzf(dir.resolve("eol" + eol.length() + ".bgz"), content, 101);
      assertExactForSizes(file, conf(false), 1, 3, 50, 333, 4096);
    }
  }

  @Test
  void emptyFilesHaveNoLines() throws IOException {
    Path empty = dir.resolve("empty.bgz");
    Files.write(empty, new byte[0]);
    assertEquals(List.of(), readSplits(conf(false), empty, 10).lines);
    Path onlyEof = writeBgzf(dir.resolve("eof-only.bgz"), new byte[0], 100);
    assertEquals(28, Files.size(onlyEof), "just the end-of-file marker");
    for (long size : new long[] {1, 5, 28}) {
      assertEquals(List.of(), readSplits(conf(false), onlyEof, size).lines);
    }
  }

  @Test
  void defaultBlocksWithALineLongerThanABlockBothApis() throws IOException {
    byte[] content = SplitReading.concat(text(5, 400_000, 2_000, "\n"),
        ("y".repeat(150_000) + "\n").getBytes(StandardCharsets.UTF_8), text(6, 200_000, 2_000, "\n"));
    Path file = dir.resolve("default.bgz");
    try (OutputStream out = new BgzfOutputStream(Files.newOutputStream(file), 6)) {
      out.write(content);
    }
    List<String> expected = lines(content);
    assertSameLines(expected, lines(gunzip(file)), "java.util.zip");
    long length = Files.size(file);
    for (long size : new long[] {1_000, 65_536, 100_000, length / 3}) {
      List<long[]> splits = new ArrayList<>();
      for (long s = 0; s < length; s += size) {
        splits.add(new long[] {s, Math.min(size, length - s)});
      }
      for (boolean oldApi : new boolean[] {false, true}) {
        assertSameLines(expected, readSplits(conf(false), file, splits, oldApi).lines,
            "splits of " + size + (oldApi ? " (mapred)" : " (mapreduce)"));
      }
    }
  }

  @Test
  void plainGzipUnderTheGzExtensionIsReadWholeByTheFirstSplit() throws IOException {
    byte[] content = text(7, 8_000, 300, "\n");
    Path file = dir.resolve("plain.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(content);
    }
    // and a file of two plain members, as cat a.gz b.gz makes
    Path twoMembers = dir.resolve("two.gz");
    byte[] second = text(8, 4_000, 300, "\n");
    Path part = dir.resolve("part.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(part))) {
      out.write(second);
    }
    Files.write(twoMembers, SplitReading.concat(Files.readAllBytes(file), Files.readAllBytes(part)));
    for (Path f : List.of(file, twoMembers)) {
      List<String> expected = lines(gunzip(f));
      long length = Files.size(f);
      for (long size : new long[] {1, 100, 1000, length / 3, length}) {
        SplitReading.Result r = readSplits(conf(true), f, size);
        assertSameLines(expected, r.lines, f.getFileName() + " in splits of " + size);
        assertEquals(expected.size(), (int) r.perSplit.get(0), "the first split reads every line");
      }
    }
  }

  @Test
  void aPlainMemberInsideABgzfFileFailsInsteadOfReadingWrong() throws IOException {
    Path bgzf = writeBgzf(dir.resolve("a.bgz"), text(9, 3_000, 100, "\n"), 200);
    byte[] bgzfBytes = Files.readAllBytes(bgzf);
    Path plain = dir.resolve("b.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(plain))) {
      out.write(text(10, 3_000, 100, "\n"));
    }
    Path mixed = dir.resolve("mixed.bgz");
    // without the first file's end-of-file marker, so the plain member follows a data block
    Files.write(mixed, SplitReading.concat(java.util.Arrays.copyOf(bgzfBytes, bgzfBytes.length - 28),
        Files.readAllBytes(plain)));
    BgzfFormatException e = assertThrows(BgzfFormatException.class,
        () -> readSplits(conf(false), mixed, Files.size(mixed)));
    assertEquals(bgzfBytes.length - 28, e.offset(), e.getMessage());
  }

  /**
   * Blocks as another writer may make them: a name field (FNAME) in the header, another extra subfield before
   * {@code BC}, 65,536 bytes of content (the most a block may hold, incompressible enough to need stored deflate
   * blocks), and no end-of-file marker.
   */
  @Test
  void blocksOfAnotherWritersLayout() throws IOException {
    java.util.Random random = new java.util.Random(12);
    StringBuilder sb = new StringBuilder();
    for (int n = 0; sb.length() < 400_000; n++) {
      sb.append(n).append(':');
      int len = random.nextInt(300);
      for (int i = 0; i < len; i++) {
        sb.append((char) (33 + random.nextInt(90)));
      }
      sb.append('\n');
    }
    byte[] content = sb.toString().getBytes(StandardCharsets.US_ASCII);
    java.io.ByteArrayOutputStream file = new java.io.ByteArrayOutputStream();
    for (int off = 0; off < content.length; off += 65536) {
      int n = Math.min(65536, content.length - off);
      java.util.zip.Deflater deflater = new java.util.zip.Deflater(random.nextBoolean() ? 1 : 9, true);
      deflater.setInput(content, off, n);
      deflater.finish();
      byte[] deflated = new byte[70_000];
      int length = 0;
      while (!deflater.finished()) {
        length += deflater.deflate(deflated, length, deflated.length - length);
      }
      deflater.end();
      byte[] name = "part.txt\0".getBytes(StandardCharsets.US_ASCII);
      byte[] extra = {'X', 'Y', 2, 0, 7, 7, 'B', 'C', 2, 0, 0, 0};
      int size = 12 + extra.length + name.length + length + 8;
      if (size > 65536) {
        // too large for a block at this level: the test wants real blocks only
        throw new IllegalStateException("block of " + size);
      }
      BgzfFormat.put16(extra, 10, size - 1);
      byte[] header = {0x1f, (byte) 0x8b, 8, 4 | 8, 0, 0, 0, 0, 0, 3, (byte) extra.length, 0};
      java.util.zip.CRC32 crc = new java.util.zip.CRC32();
      crc.update(content, off, n);
      byte[] trailer = new byte[8];
      BgzfFormat.put32(trailer, 0, crc.getValue());
      BgzfFormat.put32(trailer, 4, n);
      file.writeBytes(header);
      file.writeBytes(extra);
      file.writeBytes(name);
      file.write(deflated, 0, length);
      file.writeBytes(trailer);
    }
    Path path = dir.resolve("foreign.bgz");
    Files.write(path, file.toByteArray());
    assertSameLines(lines(content), lines(gunzip(path)), "java.util.zip");
    assertExactForSizes(path, conf(false), 1_000, 30_000, 65_536, 100_000);
  }

  @Test
  void aCorruptBlockFails() throws IOException {
    Path file = writeBgzf(dir.resolve("corrupt.bgz"), text(11, 3_000, 100, "\n"), 300);
    byte[] bytes = Files.readAllBytes(file);
    List<Long> blocks = blockOffsets(bytes);
    int inSecondBlockTrailer = (int) (blocks.get(2) - 6);
    bytes[inSecondBlockTrailer] ^= 0x55;
    Files.write(file, bytes);
    BgzfFormatException e = assertThrows(BgzfFormatException.class,
        () -> readSplits(conf(false), file, Files.size(file)));
    assertEquals(blocks.get(1), e.offset(), e.getMessage());
  }
}
