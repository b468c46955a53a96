package io.objectcommit.codecs.impl;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import org.apache.hadoop.io.compress.CompressionOutputStream;

/**
 * Writes seekable zstd: the content cut into frames of a fixed content size, each declaring its content size and
 * ending with its checksum, and at {@link #finish()} the seek table (one entry per frame with its checksum, in a
 * skippable frame that every zstd decoder skips). A frame that would end with a CR ends one byte earlier, so that no
 * line delimiter straddles a frame boundary in a way Hadoop's line reader has to guess about. Content written after
 * {@link #finish()} starts new frames with a seek table of their own.
 */
public final class SeekableZstdOutputStream extends CompressionOutputStream {

  private final byte[] pending;
  private final byte[] frame;
  private final ZstdCompressCtx ctx = new ZstdCompressCtx();
  /** Per frame written since the last seek table: compressed size, content size, checksum. */
  private int[] entries = new int[3 * 64];
  private int frames;
  private int count;
  private boolean finished;
  private boolean closed;

  /** Frames of {@code frameSize} content bytes at zstd level {@code level}. */
  public SeekableZstdOutputStream(OutputStream out, int level, int frameSize) {
    super(out);
    if (frameSize < 2) {
      throw new IllegalArgumentException("frame content size " + frameSize);
    }
    this.pending = new byte[frameSize];
    this.frame = new byte[(int) Zstd.compressBound(frameSize)];
    ctx.setLevel(level);
    ctx.setChecksum(true);
    ctx.setContentSize(true);
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    if (closed) {
      throw new IOException("seekable zstd stream closed");
    }
    if (finished) {
      finished = false;
      frames = 0;
    }
    while (len > 0) {
      int n = Math.min(len, pending.length - count);
      System.arraycopy(b, off, pending, count, n);
      count += n;
      off += n;
      len -= n;
      if (count == pending.length) {
        int cut = pending[count - 1] == '\r' ? count - 1 : count;
        writeFrame(cut);
      }
    }
  }

  /** Compresses and writes the first {@code n} pending bytes as one frame; what follows them stays pending. */
  private void writeFrame(int n) throws IOException {
    int size = ctx.compressByteArray(frame, 0, frame.length, pending, 0, n);
    out.write(frame, 0, size);
    if (3 * frames + 3 > entries.length) {
      entries = Arrays.copyOf(entries, 2 * entries.length);
    }
    entries[3 * frames] = size;
    entries[3 * frames + 1] = n;
    // the frame's own checksum (low 32 bits of the content's XXH64) is the seek table's
    entries[3 * frames + 2] = (int) BgzfFormat.u32(frame, size - 4);
    frames++;
    System.arraycopy(pending, n, pending, 0, count - n);
    count -= n;
  }

  private void writeSeekTable() throws IOException {
    int content = frames * ZstdFormat.SEEK_TABLE_ENTRY_SIZE + ZstdFormat.SEEK_TABLE_FOOTER_SIZE;
    byte[] table = new byte[ZstdFormat.SKIPPABLE_HEADER_SIZE + content];
    BgzfFormat.put32(table, 0, ZstdFormat.SEEK_TABLE_SKIPPABLE_MAGIC);
    BgzfFormat.put32(table, 4, content);
    int p = ZstdFormat.SKIPPABLE_HEADER_SIZE;
    for (int f = 0; f < frames; f++) {
      for (int k = 0; k < 3; k++) {
        BgzfFormat.put32(table, p, entries[3 * f + k] & 0xffffffffL);
        p += 4;
      }
    }
    BgzfFormat.put32(table, p, frames);
    table[p + 4] = (byte) ZstdFormat.SEEK_TABLE_CHECKSUMS;
    BgzfFormat.put32(table, p + 5, ZstdFormat.SEEKABLE_MAGIC);
    out.write(table);
  }

  @Override
  public void finish() throws IOException {
    if (finished || closed) {
      return;
    }
    while (count > 0) {
      writeFrame(count);
    }
    writeSeekTable();
    finished = true;
  }

  @Override
  public void resetState() {
    count = 0;
    frames = 0;
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
      ctx.close();
    }
  }
}
