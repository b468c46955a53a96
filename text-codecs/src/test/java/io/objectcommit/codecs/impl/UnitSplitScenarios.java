package io.objectcommit.codecs.impl;

import static io.objectcommit.codecs.impl.SplitReading.assertSameLines;
import static io.objectcommit.codecs.impl.SplitReading.conf;
import static io.objectcommit.codecs.impl.SplitReading.lines;
import static io.objectcommit.codecs.impl.SplitReading.readSplits;
import static io.objectcommit.codecs.impl.SplitReading.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every splittable format of independent units (BGZF blocks, seekable zstd frames) guarantees: every line of
 * a file is read exactly once, in order, whatever the splits; the union of the records of all splits (Hadoop's
 * LineRecordReader, as Spark reads text, through both MapReduce APIs) equals the lines the format's reference
 * decoder finds in the file; a plain (unsplittable) file under the claimed extension is read whole by the first
 * split; a damaged unit fails naming its offset. A format's test extends this and adds its own cases.
 */
abstract class UnitSplitScenarios {

  @TempDir
  Path dir;

  /** The file name extension of the format ({@code .bgz}, {@code .seekable.zst}). */
  abstract String extension();

  /** Writes {@code content} in units of about {@code unitData} uncompressed bytes, with the format's end. */
  abstract Path write(Path file, byte[] content, int unitData) throws IOException;

  /** Writes {@code content} with the writer's default unit size and level. */
  abstract Path writeDefault(Path file, byte[] content) throws IOException;

  /** The uncompressed bytes of a unit of the default writer. */
  abstract int defaultUnitData();

  /** The offsets at which the file's units start (BGZF: its end-of-file block too). */
  abstract List<Long> unitOffsets(byte[] file);

  /** The whole content, decoded by the format's reference decoder (not ours). */
  abstract byte[] decompress(Path file) throws IOException;

  /** The size of a file of no unit: only the format's end part. */
  abstract long endOnlySize();

  /** Writes {@code content} as the plain, unsplittable variant of the format, as its usual tool does. */
  abstract Path writePlain(Path file, byte[] content) throws IOException;

  /** The plain variant's extension ({@code .gz}, {@code .zst}). */
  abstract String plainExtension();

  /** A configuration under which our codec claims the plain variant's extension. */
  abstract Configuration claimingPlain();

  /** The offset of a byte that only the unit's checksum covers, in the unit that ends before {@code next}. */
  abstract long checksummedByteBefore(long next);

  /** The offset a format exception names, or fails the test if {@code e} is not the format's exception type. */
  abstract long offsetOf(IOException e);

  Path file(String name) {
    return dir.resolve(name + extension());
  }

  void assertExactForSizes(Path file, Configuration conf, long... sizes) throws IOException {
    List<String> expected = lines(decompress(file));
    for (long size : sizes) {
      SplitReading.Result r = readSplits(conf, file, size);
      assertSameLines(expected, r.lines, file.getFileName() + " in splits of " + size + " bytes");
    }
  }

  static List<long[]> splitsOf(long length, long size) {
    List<long[]> splits = new ArrayList<>();
    for (long s = 0; s < length; s += size) {
      splits.add(new long[] {s, Math.min(size, length - s)});
    }
    return splits;
  }

  @Test
  void smallUnitsAnySplitSizeReadsEveryLineOnce() throws IOException {
    byte[] content = text(1, 12_000, 150, "\n");
    Path file = write(file("small"), content, 97);
    long length = Files.size(file);
    assertTrue(unitOffsets(Files.readAllBytes(file)).size() > 100, "many units");
    assertSameLines(lines(content), lines(decompress(file)), "the reference decoder");
    assertExactForSizes(file, conf(false), 1, 2, 3, 5, 13, 64, 100, 127, 500, 1000, 4096, length / 3, length - 1,
        length, length + 5);
    SplitReading.Result r = readSplits(conf(false), file, 500);
    assertTrue(r.splitsWithRecords() > 10, "records spread over the splits: " + r.perSplit);
  }

  @Test
  void splitsEndingExactlyAtUnitBoundariesOrOneByteAround() throws IOException {
    byte[] content = text(2, 20_000, 120, "\n");
    Path file = write(file("bounds"), content, 150);
    byte[] bytes = Files.readAllBytes(file);
    List<Long> units = unitOffsets(bytes);
    List<String> expected = lines(content);
    assertSameLines(expected, lines(decompress(file)), "the reference decoder");
    for (int shift = -1; shift <= 1; shift++) {
      for (int every = 1; every <= 3; every++) {
        List<long[]> splits = new ArrayList<>();
        long start = 0;
        for (int u = every; u < units.size(); u += every) {
          long boundary = units.get(u) + shift;
          if (boundary > start) {
            splits.add(new long[] {start, boundary - start});
            start = boundary;
          }
        }
        splits.add(new long[] {start, bytes.length - start});
        for (boolean oldApi : new boolean[] {false, true}) {
          SplitReading.Result r = readSplits(conf(false), file, splits, oldApi);
          assertSameLines(expected, r.lines, "splits at every " + every + " unit boundaries " + shift
              + (oldApi ? " (mapred)" : " (mapreduce)"));
        }
      }
    }
  }

  @Test
  void aRecordStraddlingUnitsIsReadOnceWhereverTheSplitEnds() throws IOException {
    // one line of 1,000 bytes over 10 units of 100, between short lines
    String longLine = "x".repeat(1000);
    byte[] content = ("a\nb\n" + longLine + "\nc\nd\n").getBytes(StandardCharsets.UTF_8);
    Path file = write(file("straddle"), content, 100);
    List<String> expected = List.of("a", "b", longLine, "c", "d");
    assertSameLines(expected, lines(decompress(file)), "the reference decoder");
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
    Path file = write(file("last"), noNewline, 128);
    List<String> expected = lines(decompress(file));
    assertEquals("the last line", expected.get(expected.size() - 1));
    assertExactForSizes(file, conf(false), 1, 7, 100, 1000, Files.size(file));
  }

  @Test
  void crlfAndCrLineEndings() throws IOException {
    for (String eol : List.of("\r\n", "\r")) {
      byte[] content = text(4, 5_000, 100, eol);
      Path file = write(file("eol" + eol.length()), content, 101);
      assertExactForSizes(file, conf(false), 1, 3, 50, 333, 4096);
    }
  }

  @Test
  void emptyFilesHaveNoLines() throws IOException {
    Path empty = file("empty");
    Files.write(empty, new byte[0]);
    assertEquals(List.of(), readSplits(conf(false), empty, 10).lines);
    Path endOnly = write(file("end-only"), new byte[0], 100);
    assertEquals(endOnlySize(), Files.size(endOnly), "just the format's end");
    for (long size : new long[] {1, 5, endOnlySize()}) {
      assertEquals(List.of(), readSplits(conf(false), endOnly, size).lines);
    }
  }

  /** Default units, with a line longer than two of them in the middle, in splits of several sizes, both APIs. */
  @Test
  void defaultUnitsWithALineLongerThanAUnitBothApis() throws IOException {
    int unit = defaultUnitData();
    byte[] content = SplitReading.concat(text(5, unit * 3 / 2, 2_000, "\n"),
        ("y".repeat(unit * 5 / 2) + "\n").getBytes(StandardCharsets.UTF_8), text(6, unit, 2_000, "\n"));
    Path file = writeDefault(file("default"), content);
    List<String> expected = lines(content);
    assertSameLines(expected, lines(decompress(file)), "the reference decoder");
    assertTrue(unitOffsets(Files.readAllBytes(file)).size() >= 5, "five units or more");
    long length = Files.size(file);
    for (long size : new long[] {1_000, 65_536, 100_000, length / 3}) {
      for (boolean oldApi : new boolean[] {false, true}) {
        assertSameLines(expected, readSplits(conf(false), file, splitsOf(length, size), oldApi).lines,
            "splits of " + size + (oldApi ? " (mapred)" : " (mapreduce)"));
      }
    }
  }

  /** A plain file, and two plain files concatenated (as {@code cat a b} makes), under the claimed extension. */
  @Test
  void aPlainFileUnderTheClaimedExtensionIsReadWholeByTheFirstSplit() throws IOException {
    Path file = writePlain(dir.resolve("plain" + plainExtension()), text(7, 8_000, 300, "\n"));
    Path part = writePlain(dir.resolve("part" + plainExtension()), text(8, 4_000, 300, "\n"));
    Path two = dir.resolve("two" + plainExtension());
    Files.write(two, SplitReading.concat(Files.readAllBytes(file), Files.readAllBytes(part)));
    for (Path f : List.of(file, two)) {
      List<String> expected = lines(decompress(f));
      long length = Files.size(f);
      for (long size : new long[] {1, 100, 1000, length / 3, length}) {
        SplitReading.Result r = readSplits(claimingPlain(), f, size);
        assertSameLines(expected, r.lines, f.getFileName() + " in splits of " + size);
        assertEquals(expected.size(), (int) r.perSplit.get(0), "the first split reads every line");
      }
    }
  }

  @Test
  void aCorruptUnitFailsNamingItsOffset() throws IOException {
    Path file = write(file("corrupt"), text(11, 3_000, 100, "\n"), 300);
    byte[] bytes = Files.readAllBytes(file);
    List<Long> units = unitOffsets(bytes);
    bytes[(int) checksummedByteBefore(units.get(2))] ^= 0x55;
    Files.write(file, bytes);
    IOException e = assertThrows(IOException.class, () -> readSplits(conf(false), file, Files.size(file)));
    assertEquals(units.get(1), offsetOf(e), e.toString());
  }
}
