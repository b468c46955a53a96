package io.objectcommit.codecs.impl;

import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import org.apache.hadoop.io.compress.CompressionOutputStream;

/**
 * Writes BGZF: the content cut into blocks of {@link BgzfFormat#WRITE_DATA_SIZE} bytes, each a gzip member with the
 * {@code BC} field, and the end-of-file marker block at {@link #finish()}. A block that would end with a CR ends one
 * byte earlier, so that no line delimiter of the file straddles a block boundary in a way Hadoop's line reader has
 * to guess about.
 */
public final class BgzfOutputStream extends CompressionOutputStream {

  private final byte[] pending;
  private final byte[] block = new byte[BgzfFormat.MAX_BLOCK_SIZE];
  private final Deflater deflater;
  private final Deflater stored = new Deflater(Deflater.NO_COMPRESSION, true);
  private final CRC32 crc = new CRC32();
  private int count;
  private boolean finished;
  private boolean closed;

  public BgzfOutputStream(OutputStream out, int level) {
    this(out, level, BgzfFormat.WRITE_DATA_SIZE);
  }

  /** With blocks of at most {@code blockDataSize} uncompressed bytes (tests use small blocks). */
  BgzfOutputStream(OutputStream out, int level, int blockDataSize) {
    super(out);
    if (blockDataSize < 2 || blockDataSize > BgzfFormat.WRITE_DATA_SIZE) {
      throw new IllegalArgumentException("block content size " + blockDataSize);
    }
    this.pending = new byte[blockDataSize];
    this.deflater = new Deflater(level, true);
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    if (closed) {
      throw new IOException("BGZF stream closed");
    }
    finished = false;
    while (len > 0) {
      int n = Math.min(len, pending.length - count);
      System.arraycopy(b, off, pending, count, n);
      count += n;
      off += n;
      len -= n;
      if (count == pending.length) {
        int cut = pending[count - 1] == '\r' ? count - 1 : count;
        writeBlock(cut);
      }
    }
  }

  /** Compresses and writes the first {@code n} pending bytes as one block; what follows them stays pending. */
  private void writeBlock(int n) throws IOException {
    int capacity = block.length - BgzfFormat.HEADER_SIZE - BgzfFormat.TRAILER_SIZE;
    int length = deflate(deflater, n, capacity);
    if (length < 0) {
      // incompressible: stored deflate blocks always fit
      length = deflate(stored, n, capacity);
      if (length < 0) {
        throw new IOException("BGZF block of " + n + " bytes does not fit 64 KiB even stored");
      }
    }
    int size = BgzfFormat.HEADER_SIZE + length + BgzfFormat.TRAILER_SIZE;
    byte[] header = BgzfFormat.eofBlock();
    System.arraycopy(header, 0, block, 0, BgzfFormat.HEADER_SIZE);
    BgzfFormat.put16(block, 16, size - 1);
    crc.reset();
    crc.update(pending, 0, n);
    BgzfFormat.put32(block, size - 8, crc.getValue());
    BgzfFormat.put32(block, size - 4, n);
    out.write(block, 0, size);
    System.arraycopy(pending, n, pending, 0, count - n);
    count -= n;
  }

  /** Raw deflate of the first {@code n} pending bytes after the header, or -1 when they need more room. */
  private int deflate(Deflater d, int n, int capacity) {
    d.reset();
    d.setInput(pending, 0, n);
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

  @Override
  public void finish() throws IOException {
    if (finished || closed) {
      return;
    }
    while (count > 0) {
      writeBlock(count);
    }
    out.write(BgzfFormat.eofBlock());
    finished = true;
  }

  @Override
  public void resetState() {
    count = 0;
    finished = false;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    try {
      super.close();
    } finally {
      closed = true;
      deflater.end();
      stored.end();
    }
  }
}
