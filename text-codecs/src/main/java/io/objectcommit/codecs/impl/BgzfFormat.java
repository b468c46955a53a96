package io.objectcommit.codecs.impl;

/**
 * The BGZF block format (SAM specification, section 4.1; RFC 1952 for gzip): every block is a whole gzip member of
 * at most 64 KiB whose header carries an extra subfield {@code BC} with the block's size less one, so that a reader
 * finds the next block without inflating; a file ends with an empty block (the end-of-file marker).
 */
public final class BgzfFormat {

  private BgzfFormat() {
  }

  /** Largest block, header to trailer. */
  public static final int MAX_BLOCK_SIZE = 65536;

  /** Largest uncompressed content of a block. */
  public static final int MAX_DATA_SIZE = 65536;

  /**
   * Uncompressed bytes per written block: as bgzip and htsjdk write, so that even incompressible data (stored
   * deflate blocks) fits a block.
   */
  public static final int WRITE_DATA_SIZE = 0xff00;

  /** Size of the header written: the fixed gzip header, {@code XLEN} and the {@code BC} subfield. */
  public static final int HEADER_SIZE = 18;

  /** The gzip trailer: CRC-32 and the uncompressed size. */
  public static final int TRAILER_SIZE = 8;

  /** The gzip header's fixed part up to {@code XLEN} included. */
  static final int FIXED_HEADER_SIZE = 12;

  static final int FLAG_HCRC = 2;
  static final int FLAG_EXTRA = 4;
  static final int FLAG_NAME = 8;
  static final int FLAG_COMMENT = 16;

  /** The end-of-file marker: an empty block, as the specification gives it byte for byte. */
  private static final byte[] EOF_BLOCK = {
      0x1f, (byte) 0x8b, 0x08, 0x04, 0, 0, 0, 0, 0, (byte) 0xff, 0x06, 0, 0x42, 0x43, 0x02, 0, 0x1b, 0, 0x03, 0,
      0, 0, 0, 0, 0, 0, 0, 0};

  /** A copy of the end-of-file marker block. */
  public static byte[] eofBlock() {
    return EOF_BLOCK.clone();
  }

  /** Whether the bytes at {@code i} start a gzip member with an extra field (cheap test before parsing). */
  static boolean gzipWithExtra(byte[] b, int i) {
    return (b[i] & 0xff) == 0x1f && (b[i + 1] & 0xff) == 0x8b && b[i + 2] == 8 && (b[i + 3] & FLAG_EXTRA) != 0;
  }

  /**
   * The block size a header gives, or -1 when the {@code len} bytes at {@code i} (at least
   * {@link #FIXED_HEADER_SIZE} plus {@code XLEN}) are not a BGZF header.
   */
  static int blockSize(byte[] b, int i, int len) {
    if (len < FIXED_HEADER_SIZE || !gzipWithExtra(b, i)) {
      return -1;
    }
    int xlen = u16(b, i + 10);
    if (len < FIXED_HEADER_SIZE + xlen) {
      return -1;
    }
    int p = i + FIXED_HEADER_SIZE;
    int extraEnd = p + xlen;
    while (p + 4 <= extraEnd) {
      int slen = u16(b, p + 2);
      if (b[p] == 'B' && b[p + 1] == 'C' && slen == 2 && p + 6 <= extraEnd) {
        return u16(b, p + 4) + 1;
      }
      p += 4 + slen;
    }
    return -1;
  }

  /** {@code XLEN} of the header at {@code i}. */
  static int extraLength(byte[] b, int i) {
    return u16(b, i + 10);
  }

  static int u16(byte[] b, int i) {
    return (b[i] & 0xff) | (b[i + 1] & 0xff) << 8;
  }

  static long u32(byte[] b, int i) {
    return (u16(b, i) | (long) u16(b, i + 2) << 16) & 0xffffffffL;
  }

  static void put16(byte[] b, int i, int v) {
    b[i] = (byte) v;
    b[i + 1] = (byte) (v >>> 8);
  }

  static void put32(byte[] b, int i, long v) {
    put16(b, i, (int) (v & 0xffff));
    put16(b, i + 2, (int) ((v >>> 16) & 0xffff));
  }
}
