package io.objectcommit.codecs.impl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.luben.zstd.Zstd;
import io.objectcommit.codecs.CodecConstants;
import io.objectcommit.codecs.SeekableZstdCodec;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.junit.jupiter.api.Test;

/**
 * What the seekable zstd writer produces ({@link UnitOutputScenarios}): zstd that every reader reads, frames of the configured content size each
 * with its checksum, and a seek table that describes them (sizes and XXH64 checksums computed here independently).
 */
class SeekableZstdOutputStreamTest extends UnitOutputScenarios {

  @Override
  CompressionCodec codec() {
    return new SeekableZstdCodec();
  }

  @Override
  String extension() {
    return ".seekable.zst";
  }

  @Override
  int textSize() {
    return 1_500_000;
  }

  @Override
  byte[] decode(Path file) throws IOException {
    return SplitReading.unzstd(file);
  }

  @Override
  File tool() {
    return new File("/usr/bin/zstd");
  }

  @Override
  Path write(Path file, byte[] content, int unitData) throws IOException {
    return SplitReading.writeZstd(file, content, unitData);
  }

  /** The frames' content, each decoded alone. */
  @Override
  List<byte[]> units(byte[] file) {
    List<byte[]> units = new ArrayList<>();
    long offset = 0;
    for (long[] e : SplitReading.seekTable(file)) {
      units.add(Zstd.decompress(Arrays.copyOfRange(file, (int) offset, (int) (offset + e[0])), (int) e[1]));
      offset += e[0];
    }
    return units;
  }

  @Test
  void theSeekTableDescribesTheFrames() throws IOException {
    byte[] content = content();
    byte[] file = Files.readAllBytes(write(content));
    List<long[]> table = SplitReading.seekTable(file);
    int frameSize = CodecConstants.ZSTD_FRAME_SIZE_DEFAULT;
    assertEquals((content.length + frameSize - 1) / frameSize, table.size(), "frames of 1 MiB");
    long offset = 0;
    int contentOffset = 0;
    for (int f = 0; f < table.size(); f++) {
      long[] e = table.get(f);
      if (f + 1 < table.size()) {
        assertEquals(frameSize, e[1], "content size of frame " + f);
      }
      byte[] frame = Arrays.copyOfRange(file, (int) offset, (int) (offset + e[0]));
      // one whole frame: zstd decodes it alone (and checks its own checksum)
      byte[] decoded = Zstd.decompress(frame, (int) e[1]);
      byte[] expected = Arrays.copyOfRange(content, contentOffset, contentOffset + (int) e[1]);
      assertArrayEquals(expected, decoded, "frame " + f);
      assertEquals(xxh64(expected) & 0xffffffffL, e[2], "checksum of frame " + f);
      assertEquals(e[1], Zstd.decompressedSize(frame), "frame " + f + " declares its content size");
      offset += e[0];
      contentOffset += (int) e[1];
    }
    assertEquals(content.length, contentOffset);
    assertEquals(file.length - 8 - 12 * table.size() - 9, offset, "the seek table follows the last frame");
  }

  @Test
  void xxh64OfThisTestIsRight() {
    // the reference values of XXH64 with seed 0
    assertEquals(0xEF46DB3751D8E999L, xxh64(new byte[0]));
    assertEquals(0xD24EC4F1A98C6E5BL, xxh64("a".getBytes(StandardCharsets.US_ASCII)));
  }

  private static final long P1 = 0x9E3779B185EBCA87L;
  private static final long P2 = 0xC2B2AE3D27D4EB4FL;
  private static final long P3 = 0x165667B19E3779F9L;
  private static final long P4 = 0x85EBCA77C2B2AE63L;
  private static final long P5 = 0x27D4EB2F165667C5L;

  /** XXH64 with seed 0 (the zstd frame checksum's hash), written from its specification for this test. */
  static long xxh64(byte[] b) {
    int n = b.length;
    int p = 0;
    long h;
    if (n >= 32) {
      // the sum wraps, as the specification's unsigned 64-bit arithmetic does
      long v1 = P1;
      v1 += P2;
      long v2 = P2;
      long v3 = 0;
      long v4 = -P1;
      for (; p + 32 <= n; p += 32) {
        v1 = round(v1, le64(b, p));
        v2 = round(v2, le64(b, p + 8));
        v3 = round(v3, le64(b, p + 16));
        v4 = round(v4, le64(b, p + 24));
      }
      h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
      for (long v : new long[] {v1, v2, v3, v4}) {
        h ^= round(0, v);
        h = h * P1 + P4;
      }
    } else {
      h = P5;
    }
    h += n;
    for (; p + 8 <= n; p += 8) {
      h ^= round(0, le64(b, p));
      h = Long.rotateLeft(h, 27) * P1 + P4;
    }
    if (p + 4 <= n) {
      h ^= SplitReading.le32(b, p) * P1;
      h = Long.rotateLeft(h, 23) * P2 + P3;
      p += 4;
    }
    for (; p < n; p++) {
      h ^= (b[p] & 0xffL) * P5;
      h = Long.rotateLeft(h, 11) * P1;
    }
    h ^= h >>> 33;
    h *= P2;
    h ^= h >>> 29;
    h *= P3;
    h ^= h >>> 32;
    return h;
  }

  private static long round(long acc, long lane) {
    return Long.rotateLeft(acc + lane * P2, 31) * P1;
  }

  private static long le64(byte[] b, int i) {
    return SplitReading.le32(b, i) | SplitReading.le32(b, i + 4) << 32;
  }
}
