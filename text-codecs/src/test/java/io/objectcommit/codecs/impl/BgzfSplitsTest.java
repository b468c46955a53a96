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
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.objectcommit.codecs.BgzfFormatException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * BGZF: the splitting scenarios every unit format meets ({@link UnitSplitScenarios}) with BGZF blocks, checked
 * against java.util.zip, plain gzip under {@code .gz} read whole; and BGZF's own cases.
 */
class BgzfSplitsTest extends UnitSplitScenarios {

  @Override
  String extension() {
    return ".bgz";
  }

  @Override
  Path write(Path file, byte[] content, int unitData) throws IOException {
    return writeBgzf(file, content, unitData);
  }

  @Override
  Path writeDefault(Path file, byte[] content) throws IOException {
    try (OutputStream out = new BgzfOutputStream(Files.newOutputStream(file), 6)) {
      out.write(content);
    }
    return file;
  }

  @Override
  int defaultUnitData() {
    return BgzfFormat.WRITE_DATA_SIZE;
  }

  @Override
  List<Long> unitOffsets(byte[] file) {
    return blockOffsets(file);
  }

  @Override
  byte[] decompress(Path file) throws IOException {
    return gunzip(file);
  }

  @Override
  long endOnlySize() {
    return 28; // the end-of-file marker block
  }

  @Override
  Path writePlain(Path file, byte[] content) throws IOException {
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(content);
    }
    return file;
  }

  @Override
  String plainExtension() {
    return ".gz";
  }

  @Override
  Configuration claimingPlain() {
    return conf(true);
  }

  @Override
  long checksummedByteBefore(long next) {
    return next - 6; // in the block's trailer: its CRC32
  }

  @Override
  long offsetOf(IOException e) {
    return assertInstanceOf(BgzfFormatException.class, e).offset();
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

}
