package io.objectcommit.codecs.impl;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.io.compress.SplitCompressionInputStream;

/**
 * The content of a file of self-contained units (BGZF blocks, zstd frames: "blocks" below) from one block on, as
 * Hadoop's {@code LineRecordReader} reads a split of it.
 *
 * <p>The contract with {@code LineRecordReader} and {@code CompressedSplitLineReader}: the reader keeps reading
 * records while {@link #getPos()} is at most the split's end, and reads one more when the stream ends a read in the
 * middle of a line delimiter; a split that does not start at 0 first skips up to its first delimiter. So:
 * <ul>
 *   <li>a read never returns bytes of two blocks, and {@link #getPos()} becomes "offset of the block + 1" when a
 *       read returns the first bytes of a block: a record is read by the split in which the block holding the
 *       delimiter before it starts ({@code offset < end}; the first record of the file by the first split);
 *   <li>the split whose start is not 0 begins at the first block starting at or after its start, and reads
 *       nothing when that block starts at or after its end (its records are the next split's);
 *   <li>a read does not end with a CR when more bytes of the block follow: Hadoop's reader would peek at the next
 *       byte in a new read and keep a "one more record" flag that is only right at a block boundary.
 * </ul>
 */
public final class UnitSplitInputStream extends SplitCompressionInputStream {

  private final UnitDecoder decoder;
  private long blockOffset;
  private long nextOffset;
  private int dataPos;
  private int dataLength;
  private boolean firstRead;
  private boolean ended;
  private long pos;

  /**
   * A stream whose first block, at {@code firstBlock}, is already decoded in {@code decoder} and is {@code size}
   * bytes long; {@code end} is the split's end.
   */
  UnitSplitInputStream(InputStream in, UnitDecoder decoder, long firstBlock, int size, long end)
      throws IOException {
    super(in, firstBlock, end);
    this.decoder = decoder;
    this.blockOffset = firstBlock;
    this.nextOffset = firstBlock + size;
    this.dataLength = decoder.dataLength();
    this.firstRead = true;
    this.pos = firstBlock;
  }

  /** A stream with nothing to read: the split has no block of its own (start is the split's start). */
  UnitSplitInputStream(InputStream in, long start, long end) throws IOException {
    super(in, start, end);
    this.decoder = null;
    this.ended = true;
    this.pos = start;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (dataPos >= dataLength) {
      if (!nextBlock()) {
        return -1;
      }
    }
    if (firstRead) {
      pos = blockOffset + 1;
      firstRead = false;
    }
    byte[] data = decoder.data();
    int n = Math.min(len, dataLength - dataPos);
    if (n > 1 && dataPos + n < dataLength && data[dataPos + n - 1] == '\r') {
      n--;
    }
    System.arraycopy(data, dataPos, b, off, n);
    dataPos += n;
    return n;
  }

  private boolean nextBlock() throws IOException {
    if (ended) {
      return false;
    }
    int size = decoder.decode(nextOffset, true);
    if (size == 0) {
      ended = true;
      return false;
    }
    blockOffset = nextOffset;
    nextOffset += size;
    dataPos = 0;
    dataLength = decoder.dataLength();
    firstRead = true;
    return true;
  }

  @Override
  public long getPos() {
    return pos;
  }

  @Override
  public void resetState() {
    throw new UnsupportedOperationException("a split stream of blocks or frames cannot be reset");
  }

  @Override
  public void close() throws IOException {
    try {
      super.close();
    } finally {
      if (decoder != null) {
        decoder.close();
      }
    }
  }
}
