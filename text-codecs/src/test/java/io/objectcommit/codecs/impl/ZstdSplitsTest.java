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
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdOutputStream;
import io.objectcommit.codecs.CodecConstants;
import io.objectcommit.codecs.ZstdFormatException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * Seekable zstd: the splitting scenarios every unit format meets ({@link UnitSplitScenarios}) with frames, checked
 * against zstd-jni's stream, a plain one-frame zstd file under {@code .zst} read whole; and zstd's own cases.
 */
class ZstdSplitsTest extends UnitSplitScenarios {

  @Override
  String extension() {
    return ".seekable.zst";
  }

  @Override
  Path write(Path file, byte[] content, int unitData) throws IOException {
    return writeZstd(file, content, unitData);
  }

  @Override
  Path writeDefault(Path file, byte[] content) throws IOException {
    try (OutputStream out = new SeekableZstdOutputStream(Files.newOutputStream(file), 3,
        CodecConstants.ZSTD_FRAME_SIZE_DEFAULT)) {
      out.write(content);
    }
    return file;
  }

  @Override
  int defaultUnitData() {
    return CodecConstants.ZSTD_FRAME_SIZE_DEFAULT;
  }

  @Override
  List<Long> unitOffsets(byte[] file) {
    return frameOffsets(file);
  }

  @Override
  byte[] decompress(Path file) throws IOException {
    return unzstd(file);
  }

  @Override
  long endOnlySize() {
    return 17; // the seek table of no frame
  }

  /** As zstd writes from a pipe: one frame without a content size. */
  @Override
  Path writePlain(Path file, byte[] content) throws IOException {
    try (OutputStream out = new ZstdOutputStream(Files.newOutputStream(file))) {
      out.write(content);
    }
    return file;
  }

  @Override
  String plainExtension() {
    return ".zst";
  }

  @Override
  Configuration claimingPlain() {
    return conf(false, true);
  }

  @Override
  long checksummedByteBefore(long next) {
    return next - 2; // in the frame's content checksum: only the checksum tells
  }

  @Override
  long offsetOf(IOException e) {
    return assertInstanceOf(ZstdFormatException.class, e).offset();
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

  /** A split starting after a damaged frame does not take the damaged frame for its first. */
  @Test
  void aSplitAfterADamagedFrameStartsAtTheNextFrame() throws IOException {
    Path file = writeZstd(dir.resolve("corrupt.seekable.zst"), text(11, 3_000, 100, "\n"), 300);
    byte[] bytes = Files.readAllBytes(file);
    List<Long> frames = frameOffsets(bytes);
    // the checksum of the second frame: only the checksum tells
    int inSecondFrameChecksum = (int) (frames.get(2) - 2);
    bytes[inSecondFrameChecksum] ^= 0x55;
    Files.write(file, bytes);
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
