package io.objectcommit.codecs.impl;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Writes seekable zstd: the content cut into frames of a fixed content size, each declaring its content size and
 * ending with its checksum, and at {@link #finish()} the seek table (one entry per frame with its checksum, in a
 * skippable frame that every zstd decoder skips). Frames are cut as {@link UnitOutputStream} says (never after a CR
 * that more content follows). Content written after {@link #finish()} starts new frames with a seek table of their
 * own.
 */
public final class SeekableZstdOutputStream extends UnitOutputStream {

  private final byte[] frame;
  private final ZstdCompressCtx ctx = new ZstdCompressCtx();
  /** Per frame written since the last seek table: compressed size, content size, checksum. */
  private int[] entries = new int[3 * 64];
  private int frames;

  /** Frames of {@code frameSize} content bytes at zstd level {@code level}. */
  public SeekableZstdOutputStream(OutputStream out, int level, int frameSize) {
    super(out, frameSize, "seekable zstd");
    this.frame = new byte[(int) Zstd.compressBound(frameSize)];
    ctx.setLevel(level);
    ctx.setChecksum(true);
    ctx.setContentSize(true);
  }

  @Override
  void writeUnit(byte[] data, int n) throws IOException {
    int size = ctx.compressByteArray(frame, 0, frame.length, data, 0, n);
    out.write(frame, 0, size);
    if (3 * frames + 3 > entries.length) {
      entries = Arrays.copyOf(entries, 2 * entries.length);
    }
    entries[3 * frames] = size;
    entries[3 * frames + 1] = n;
    // the frame's own checksum (low 32 bits of the content's XXH64) is the seek table's
    entries[3 * frames + 2] = (int) BgzfFormat.u32(frame, size - 4);
    frames++;
  }

  /** The seek table of the frames written since the last one. */
  @Override
  void writeEnd() throws IOException {
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
  void restarted() {
    frames = 0;
  }

  @Override
  void release() {
    ctx.close();
  }
}
