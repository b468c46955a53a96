package io.objectcommit.codecs.impl;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;
import io.objectcommit.codecs.CodecConstants;
import io.objectcommit.codecs.ZstdFormatException;
import java.io.IOException;

/**
 * Decodes the zstd frames of a file read split from a {@link BlockInput}: the header must declare the content size
 * (at most {@link CodecConstants#ZSTD_MAX_FRAME_CONTENT}), the frame's extent is found by walking its block headers,
 * and the whole frame is decoded in memory by zstd, which checks the frame's checksum when it has one; so a frame is
 * either exactly what was written or an error. Skippable frames (the seek table) are units without content. Also
 * the test that tells a frame start from bytes that only look like one (a split's first frame is found by trying
 * offsets).
 */
final class FrameDecoder implements UnitDecoder {

  private final BlockInput input;
  private byte[] data = new byte[0];
  private int dataLength;

  FrameDecoder(BlockInput input) {
    this.input = input;
  }

  @Override
  public byte[] data() {
    return data;
  }

  @Override
  public int dataLength() {
    return dataLength;
  }

  @Override
  public int decode(long offset, boolean strict) throws IOException {
    int have = input.ensure(offset, ZstdFormat.MAX_HEADER_SIZE);
    if (have == 0) {
      return 0;
    }
    if (have < 4) {
      return fail(strict, offset, "the file ends inside a frame header");
    }
    byte[] b = input.buffer();
    int i = input.index(offset);
    if (ZstdFormat.isSkippable(b, i)) {
      if (have < ZstdFormat.SKIPPABLE_HEADER_SIZE) {
        return fail(strict, offset, "the file ends inside a skippable frame header");
      }
      long size = ZstdFormat.SKIPPABLE_HEADER_SIZE + BgzfFormat.u32(b, i + 4);
      if (size > Integer.MAX_VALUE) {
        return fail(strict, offset, "a skippable frame of " + size + " bytes");
      }
      dataLength = 0;
      return (int) size;
    }
    if (!ZstdFormat.isFrame(b, i)) {
      return fail(strict, offset, "not a zstd frame (no frame magic number)");
    }
    if (have < 5 || have < ZstdFormat.headerSize(b, i)) {
      return fail(strict, offset, "the file ends inside a frame header");
    }
    if (ZstdFormat.reservedBitSet(b, i)) {
      return fail(strict, offset, "the frame header's reserved bit is set");
    }
    long contentSize = ZstdFormat.contentSize(b, i);
    if (contentSize < 0) {
      return fail(strict, offset, "a frame that does not declare its content size, after frames that did: a file "
          + "read split must declare it in every frame (seekable zstd does)");
    }
    if (contentSize > CodecConstants.ZSTD_MAX_FRAME_CONTENT) {
      return fail(strict, offset, "a frame of " + contentSize + " content bytes, after smaller frames: frames read "
          + "split hold at most " + CodecConstants.ZSTD_MAX_FRAME_CONTENT + " bytes (rewrite the file with smaller "
          + "frames)");
    }
    boolean checksum = ZstdFormat.hasChecksum(b, i);
    int p = ZstdFormat.headerSize(b, i);
    while (true) {
      if (input.ensure(offset, p + 3) < p + 3) {
        return fail(strict, offset, "the file ends inside the frame (at a block header " + p + " bytes in)");
      }
      b = input.buffer();
      i = input.index(offset);
      int header = ZstdFormat.u24(b, i + p);
      int type = (header >>> 1) & 3;
      int size = header >>> 3;
      if (type == 3) {
        return fail(strict, offset, "a block of the reserved type " + p + " bytes in");
      }
      if (size > ZstdFormat.MAX_BLOCK_SIZE) {
        return fail(strict, offset, "a block of " + size + " bytes (at most 128 KiB) " + p + " bytes in");
      }
      p += 3 + (type == 1 ? 1 : size);
      if (p > ZstdFormat.MAX_FRAME_SIZE - 4) {
        return fail(strict, offset, "a frame larger than its content size allows");
      }
      if ((header & 1) != 0) {
        break;
      }
    }
    if (checksum) {
      p += 4;
    }
    if (input.ensure(offset, p) < p) {
      return fail(strict, offset, "the file ends inside a frame of " + p + " bytes");
    }
    b = input.buffer();
    i = input.index(offset);
    int n = (int) contentSize;
    if (data.length < n) {
      data = new byte[Math.max(n, Math.min(2 * data.length, CodecConstants.ZSTD_MAX_FRAME_CONTENT))];
    }
    long r;
    try {
      r = Zstd.decompressByteArray(data, 0, n, b, i, p);
    } catch (ZstdException e) {
      // zstd-jni reports a frame it cannot decode (a checksum mismatch too) by this exception or by an error code
      return fail(strict, offset, "zstd cannot decode the frame: " + e.getMessage());
    }
    if (Zstd.isError(r)) {
      return fail(strict, offset, "zstd cannot decode the frame: " + Zstd.getErrorName(r));
    }
    if (r != n) {
      return fail(strict, offset, "content of " + r + " bytes, the header says " + n);
    }
    dataLength = n;
    return p;
  }

  private static int fail(boolean strict, long offset, String problem) throws ZstdFormatException {
    if (strict) {
      throw new ZstdFormatException("reading a zstd frame", offset, problem);
    }
    return NOT_A_UNIT;
  }

  @Override
  public void close() {
    // nothing held: zstd-jni's one-shot decompression allocates its own context
  }
}
