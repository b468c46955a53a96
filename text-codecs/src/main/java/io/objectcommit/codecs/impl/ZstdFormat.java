package io.objectcommit.codecs.impl;

import io.objectcommit.codecs.CodecConstants;

/**
 * The zstd frame format (RFC 8878) as far as reading split needs it, and the seekable format's seek table
 * (facebook/zstd, contrib/seekable_format): a file is a sequence of zstd frames; a frame header may declare the
 * content size; a frame is a header, blocks of at most 128 KiB each behind a 3-byte header, and an optional 4-byte
 * checksum (low 32 bits of the content's XXH64). The seek table is a skippable frame at the end: one entry per frame
 * (compressed size, content size, checksum) and a 9-byte footer.
 */
public final class ZstdFormat {

  private ZstdFormat() {
  }

  /** The magic number of a zstd frame. */
  public static final long FRAME_MAGIC = 0xFD2FB528L;

  /** The magic numbers of skippable frames: this value with any low nibble. */
  public static final long SKIPPABLE_MAGIC = 0x184D2A50L;

  /** The magic number of the skippable frame the seek table is written in. */
  public static final long SEEK_TABLE_SKIPPABLE_MAGIC = 0x184D2A5EL;

  /** The seekable format's magic number, at the very end of a file. */
  public static final long SEEKABLE_MAGIC = 0x8F92EAB1L;

  /** The seek table's footer: number of frames, descriptor, seekable magic. */
  public static final int SEEK_TABLE_FOOTER_SIZE = 9;

  /** A seek table entry with a checksum. */
  public static final int SEEK_TABLE_ENTRY_SIZE = 12;

  /** The seek table descriptor's flag for entries with checksums. */
  public static final int SEEK_TABLE_CHECKSUMS = 0x80;

  /** The largest frame header: magic, descriptor, window, dictionary id (4), content size (8). */
  static final int MAX_HEADER_SIZE = 18;

  /** The largest block (content or compressed). */
  static final int MAX_BLOCK_SIZE = 128 * 1024;

  /** A skippable frame's header: magic and size. */
  static final int SKIPPABLE_HEADER_SIZE = 8;

  /** The largest frame read split, compressed: its content, raw at worst, with block headers and its header. */
  static final int MAX_FRAME_SIZE = CodecConstants.ZSTD_MAX_FRAME_CONTENT
      + 3 * (CodecConstants.ZSTD_MAX_FRAME_CONTENT / MAX_BLOCK_SIZE + 1) + MAX_HEADER_SIZE + 4;

  static boolean isFrame(byte[] b, int i) {
    return BgzfFormat.u32(b, i) == FRAME_MAGIC;
  }

  static boolean isSkippable(byte[] b, int i) {
    return (BgzfFormat.u32(b, i) & ~0xFL) == SKIPPABLE_MAGIC;
  }

  /** The header size of the frame at {@code i} (its descriptor byte at {@code i + 4} is available). */
  static int headerSize(byte[] b, int i) {
    int d = b[i + 4] & 0xff;
    boolean singleSegment = (d & 0x20) != 0;
    return 5 + (singleSegment ? 0 : 1) + dictionaryIdSize(d) + contentSizeSize(d);
  }

  /** Whether the frame's checksum follows its last block. */
  static boolean hasChecksum(byte[] b, int i) {
    return (b[i + 4] & 0x04) != 0;
  }

  /** Whether the descriptor's reserved bit is set (not a valid frame). */
  static boolean reservedBitSet(byte[] b, int i) {
    return (b[i + 4] & 0x08) != 0;
  }

  /**
   * The content size the header at {@code i} declares (the whole header is available), or -1 when it declares
   * none.
   */
  static long contentSize(byte[] b, int i) {
    int d = b[i + 4] & 0xff;
    int size = contentSizeSize(d);
    int p = i + headerSize(b, i) - size;
    switch (size) {
      case 0:
        return -1;
      case 1:
        return b[p] & 0xff;
      case 2:
        return BgzfFormat.u16(b, p) + 256L;
      case 4:
        return BgzfFormat.u32(b, p);
      default:
        long high = BgzfFormat.u32(b, p + 4);
        return high >= 0x80000000L ? Long.MAX_VALUE : high << 32 | BgzfFormat.u32(b, p);
    }
  }

  private static int dictionaryIdSize(int d) {
    return new int[] {0, 1, 2, 4}[d & 3];
  }

  private static int contentSizeSize(int d) {
    int flag = d >>> 6;
    if (flag == 0) {
      return (d & 0x20) != 0 ? 1 : 0;
    }
    return new int[] {0, 2, 4, 8}[flag];
  }

  static int u24(byte[] b, int i) {
    return (b[i] & 0xff) | (b[i + 1] & 0xff) << 8 | (b[i + 2] & 0xff) << 16;
  }
}
