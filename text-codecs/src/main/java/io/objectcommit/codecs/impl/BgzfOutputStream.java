package io.objectcommit.codecs.impl;

import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Writes BGZF: the content cut into blocks of {@link BgzfFormat#WRITE_DATA_SIZE} bytes, each a gzip member with the
 * {@code BC} field, and the end-of-file marker block at {@link #finish()}. Blocks are cut as {@link UnitOutputStream}
 * says (never after a CR that more content follows).
 */
public final class BgzfOutputStream extends UnitOutputStream {

  private final byte[] block = new byte[BgzfFormat.MAX_BLOCK_SIZE];
  private final Deflater deflater;
  private final Deflater stored = new Deflater(Deflater.NO_COMPRESSION, true);
  private final CRC32 crc = new CRC32();

  public BgzfOutputStream(OutputStream out, int level) {
    this(out, level, BgzfFormat.WRITE_DATA_SIZE);
  }

  /** With blocks of at most {@code blockDataSize} uncompressed bytes (tests use small blocks). */
  BgzfOutputStream(OutputStream out, int level, int blockDataSize) {
    super(out, checkedSize(blockDataSize), "BGZF");
    this.deflater = new Deflater(level, true);
  }

  private static int checkedSize(int blockDataSize) {
    if (blockDataSize < 2 || blockDataSize > BgzfFormat.WRITE_DATA_SIZE) {
      throw new IllegalArgumentException("block content size " + blockDataSize);
    }
    return blockDataSize;
  }

  @Override
  void writeUnit(byte[] data, int n) throws IOException {
    int capacity = block.length - BgzfFormat.HEADER_SIZE - BgzfFormat.TRAILER_SIZE;
    int length = deflate(deflater, data, n, capacity);
    if (length < 0) {
      // incompressible: stored deflate blocks always fit
      length = deflate(stored, data, n, capacity);
      if (length < 0) {
        throw new IOException("BGZF block of " + n + " bytes does not fit 64 KiB even stored");
      }
    }
    int size = BgzfFormat.HEADER_SIZE + length + BgzfFormat.TRAILER_SIZE;
    byte[] header = BgzfFormat.eofBlock();
    System.arraycopy(header, 0, block, 0, BgzfFormat.HEADER_SIZE);
    BgzfFormat.put16(block, 16, size - 1);
    crc.reset();
    crc.update(data, 0, n);
    BgzfFormat.put32(block, size - 8, crc.getValue());
    BgzfFormat.put32(block, size - 4, n);
    out.write(block, 0, size);
  }

  /** Raw deflate of {@code data[0, n)} after the header, or -1 when they need more room. */
  private int deflate(Deflater d, byte[] data, int n, int capacity) {
    d.reset();
    d.setInput(data, 0, n);
    d.finish();
    int length = 0;
    while (!d.finished()) {
      int k = d.deflate(block, BgzfFormat.HEADER_SIZE + length, capacity - length);
      length += k;
      if (length == capacity && !d.finished()) {
        return -1;
      }
    }
    return length;
  }

  /** The end-of-file marker block. */
  @Override
  void writeEnd() throws IOException {
    out.write(BgzfFormat.eofBlock());
  }

  @Override
  void release() {
    deflater.end();
    stored.end();
  }
}
