package io.objectcommit.codecs.impl;

import io.objectcommit.codecs.BgzfFormatException;
import java.io.IOException;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decodes BGZF blocks from a {@link BlockInput}: header, raw inflate, CRC-32 and size checked, so that a block is
 * either exactly what was written or an error. Also the test that tells a block start from bytes that only look like
 * one (a split's first block is found by trying offsets).
 */
final class BlockDecoder implements UnitDecoder {

  private final BlockInput input;
  private final Inflater inflater = new Inflater(true);
  private final CRC32 crc = new CRC32();
  /** One byte more than a block may hold, so that too much content is seen. */
  private final byte[] data = new byte[BgzfFormat.MAX_DATA_SIZE + 1];
  private int dataLength;

  BlockDecoder(BlockInput input) {
    this.input = input;
  }

  BlockInput input() {
    return input;
  }

  @Override
  public byte[] data() {
    return data;
  }

  @Override
  public int dataLength() {
    return dataLength;
  }

  /**
   * Decodes the block at {@code offset} into {@link #data()}: returns its compressed size, 0 when the stream ends
   * exactly there, or (when {@code strict} is false) {@link #NOT_A_UNIT} when no valid block starts there.
   * Strict, a bad block is a {@link BgzfFormatException}.
   */
  @Override
  public int decode(long offset, boolean strict) throws IOException {
    int have = input.ensure(offset, BgzfFormat.FIXED_HEADER_SIZE);
    if (have == 0) {
      return 0;
    }
    if (have < BgzfFormat.FIXED_HEADER_SIZE) {
      return fail(strict, offset, "the file ends inside a block header");
    }
    byte[] b = input.buffer();
    int i = input.index(offset);
    if (!BgzfFormat.gzipWithExtra(b, i)) {
      return fail(strict, offset, "not a BGZF block (no gzip header with an extra field): a file that mixes BGZF "
          + "with plain gzip members is not read split; read it with Hadoop's GzipCodec or rewrite it as BGZF");
    }
    int headerFixed = BgzfFormat.FIXED_HEADER_SIZE + BgzfFormat.extraLength(b, i);
    if (input.ensure(offset, headerFixed) < headerFixed) {
      return fail(strict, offset, "the file ends inside a block header");
    }
    b = input.buffer();
    i = input.index(offset);
    int size = BgzfFormat.blockSize(b, i, headerFixed);
    if (size < 0) {
      return fail(strict, offset, "a gzip member without the BGZF block size field (BC): a file that mixes BGZF "
          + "with plain gzip members is not read split; read it with Hadoop's GzipCodec or rewrite it as BGZF");
    }
    if (size < headerFixed + BgzfFormat.TRAILER_SIZE) {
      return fail(strict, offset, "block size " + size + " smaller than its header and trailer");
    }
    if (input.ensure(offset, size) < size) {
      return fail(strict, offset, "the file ends inside a block of " + size + " bytes");
    }
    b = input.buffer();
    i = input.index(offset);
    int dataStart = skipOptionalHeader(b, i, headerFixed, size);
    if (dataStart < 0) {
      return fail(strict, offset, "bad optional gzip header fields");
    }
    int trailer = i + size - BgzfFormat.TRAILER_SIZE;
    long expectedCrc = BgzfFormat.u32(b, trailer);
    long expectedSize = BgzfFormat.u32(b, trailer + 4);
    if (expectedSize > BgzfFormat.MAX_DATA_SIZE) {
      return fail(strict, offset, "block content of " + expectedSize + " bytes (at most 64 KiB)");
    }
    inflater.reset();
    // the trailer follows the raw deflate data: zlib may look one byte past the data's end
    inflater.setInput(b, dataStart, trailer - dataStart + BgzfFormat.TRAILER_SIZE);
    int n = 0;
    try {
      while (!inflater.finished() && n < data.length) {
        int k = inflater.inflate(data, n, data.length - n);
        if (k == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          break;
        }
        n += k;
      }
    } catch (DataFormatException e) {
      if (!strict) {
        return NOT_A_UNIT;
      }
      throw new BgzfFormatException("reading a BGZF block", offset, "bad deflate data: " + e.getMessage(), e);
    }
    if (!inflater.finished() || inflater.getRemaining() != BgzfFormat.TRAILER_SIZE) {
      return fail(strict, offset, "deflate data do not end where the block's trailer starts");
    }
    if (n != expectedSize) {
      return fail(strict, offset, "content of " + n + " bytes, the trailer says " + expectedSize);
    }
    crc.reset();
    crc.update(data, 0, n);
    if (crc.getValue() != expectedCrc) {
      return fail(strict, offset, "CRC-32 mismatch");
    }
    dataLength = n;
    return size;
  }

  /** Where the deflate data start after the optional header fields, or -1 when they overrun the block. */
  private static int skipOptionalHeader(byte[] b, int i, int p, int size) {
    int flags = b[i + 3] & 0xff;
    int limit = size - BgzfFormat.TRAILER_SIZE;
    for (int flag : new int[] {BgzfFormat.FLAG_NAME, BgzfFormat.FLAG_COMMENT}) {
      if ((flags & flag) != 0) {
        while (p < limit && b[i + p] != 0) {
          p++;
        }
        p++;
      }
    }
    if ((flags & BgzfFormat.FLAG_HCRC) != 0) {
      p += 2;
    }
    return p <= limit ? i + p : -1;
  }

  private static int fail(boolean strict, long offset, String problem) throws BgzfFormatException {
    if (strict) {
      throw new BgzfFormatException("reading a BGZF block", offset, problem);
    }
    return NOT_A_UNIT;
  }

  @Override
  public void close() {
    inflater.end();
  }
}
