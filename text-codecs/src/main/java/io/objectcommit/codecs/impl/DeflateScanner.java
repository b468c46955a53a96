package io.objectcommit.codecs.impl;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;
import java.util.zip.ZipException;

/**
 * Decodes a gzip file in one forward pass, member after member, and tells where each deflate block starts: its
 * position in the compressed bytes to the bit, how many bytes were decoded before it and the last 32 KiB of them
 * (the window a decoder needs to resume there). {@code java.util.zip.Inflater} decodes faster but tells neither, so
 * this decoder is written from RFC 1951 and RFC 1952, for building a gzip index (see {@link GzipIndexBuilder}); the
 * split readers resume with {@code Inflater} ({@link InflaterAtBlock}). Each member's CRC-32 and length are checked.
 */
final class DeflateScanner {

  /**
   * Told of every member and block start; the window is valid during the call only. A listener that keeps a start
   * as a checkpoint returns true: the CRC-32 it is given next covers the bytes decoded from there on.
   */
  interface Listener {

    /**
     * A member's header starts at byte {@code offset}; {@code out} bytes were decoded before it, the last one
     * {@code lastByte} (-1 at the file's start), and {@code spanCrc} is the CRC-32 of those decoded since the last
     * start kept (all of them before the first one).
     */
    boolean memberStart(long offset, long out, int lastByte, long spanCrc) throws IOException;

    /**
     * A deflate block starts at bit {@code bitOffset} (not the member's first block); {@code out} bytes were
     * decoded before it, the last {@code windowLength} of them in {@code window}, the last one {@code lastByte};
     * {@code spanCrc} as for {@link #memberStart}.
     */
    boolean blockStart(long bitOffset, long out, byte[] window, int windowLength, int lastByte, long spanCrc)
        throws IOException;

    /** The file ends after {@code out} decoded bytes; {@code spanCrc} as for {@link #memberStart}. */
    void end(long out, long spanCrc) throws IOException;
  }

  /** The window deflate may refer back into. */
  static final int WINDOW = 32 * 1024;

  private static final int MAX_BITS = 15;
  private static final int[] LENGTH_BASE = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
      67, 83, 99, 115, 131, 163, 195, 227, 258};
  private static final int[] LENGTH_EXTRA = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
      5, 5, 5, 5, 0};
  private static final int[] DIST_BASE = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513,
      769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
  private static final int[] DIST_EXTRA = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
      11, 11, 12, 12, 13, 13};
  /** The order in which the code length code's lengths are sent. */
  private static final int[] CLEN_ORDER = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

  private static final Huffman FIXED_LITLEN;
  private static final Huffman FIXED_DIST;

  static {
    int[] l = new int[288];
    for (int i = 0; i < 288; i++) {
      l[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
    }
    FIXED_LITLEN = fixed(l);
    int[] d = new int[30];
    java.util.Arrays.fill(d, 5);
    FIXED_DIST = fixed(d);
  }

  private static Huffman fixed(int[] lengths) {
    try {
      return Huffman.of(lengths, lengths.length);
    } catch (ZipException e) {
      throw new IllegalStateException("the fixed codes of RFC 1951 are complete", e);
    }
  }

  private final InputStream in;
  private final Listener listener;
  private final byte[] inBuf = new byte[64 * 1024];
  private int inPos;
  private int inLen;
  /** Bytes of the stream consumed into {@link #inBuf} before its current contents. */
  private long inBase;
  private long bitBuf;
  private int bitCount;

  /** The last 64 KiB decoded (a ring), for back references and the window at a block start. */
  private final byte[] ring = new byte[2 * WINDOW];
  private long out;
  private long memberOut;
  private final CRC32 crc = new CRC32();
  /** The CRC-32 of the bytes decoded since the last start the listener kept. */
  private final CRC32 span = new CRC32();
  /** Bytes of {@link #ring} not yet added to {@link #crc}: from {@code crcFrom} to {@link #out}. */
  private long crcFrom;
  private final byte[] windowCopy = new byte[WINDOW];

  private DeflateScanner(InputStream in, Listener listener) {
    this.in = in;
    this.listener = listener;
  }

  /**
   * Decodes the gzip file {@code in} (from its first byte) to its end, telling {@code listener}; returns the number
   * of bytes decoded. A damaged file is a {@link ZipException} naming the offset.
   */
  static long scan(InputStream in, Listener listener) throws IOException {
    DeflateScanner s = new DeflateScanner(in, listener);
    s.members();
    return s.out;
  }

  private void members() throws IOException {
    boolean first = true;
    while (true) {
      long offset = bytePosition();
      if (!first && atEnd()) {
        flushCrc();
        listener.end(out, span.getValue());
        return;
      }
      first = false;
      flushCrc();
      if (listener.memberStart(offset, out, lastByte(), span.getValue())) {
        span.reset();
      }
      header(offset);
      memberOut = out;
      crc.reset();
      crcFrom = out;
      deflate();
      trailer();
    }
  }

  private boolean atEnd() throws IOException {
    return inPos >= inLen && !fill();
  }

  private void header(long offset) throws IOException {
    if (byteAligned() != 0x1f || byteAligned() != 0x8b || byteAligned() != 8) {
      throw new ZipException("not a gzip member at offset " + offset);
    }
    int flags = byteAligned();
    for (int i = 0; i < 6; i++) {
      byteAligned(); // mtime, xfl, os
    }
    if ((flags & 4) != 0) {
      int xlen = byteAligned() | byteAligned() << 8;
      for (int i = 0; i < xlen; i++) {
        byteAligned();
      }
    }
    if ((flags & 8) != 0) {
      while (byteAligned() != 0) {
        // file name
      }
    }
    if ((flags & 16) != 0) {
      while (byteAligned() != 0) {
        // comment
      }
    }
    if ((flags & 2) != 0) {
      byteAligned();
      byteAligned();
    }
  }

  private void trailer() throws IOException {
    dropToByte();
    long expectedCrc = le32();
    long expectedSize = le32();
    flushCrc();
    if (crc.getValue() != expectedCrc || ((out - memberOut) & 0xffffffffL) != expectedSize) {
      throw new ZipException("gzip member ending at offset " + bytePosition() + ": CRC-32 or length mismatch");
    }
  }

  private long le32() throws IOException {
    return byteAligned() | (long) byteAligned() << 8 | (long) byteAligned() << 16 | (long) byteAligned() << 24;
  }

  private void deflate() throws IOException {
    boolean firstBlock = true;
    boolean last;
    do {
      if (!firstBlock) {
        // back references never reach into an earlier member
        int len = (int) Math.min(WINDOW, out - memberOut);
        copyWindow(len);
        flushCrc();
        if (listener.blockStart(bitPosition(), out, windowCopy, len, lastByte(), span.getValue())) {
          span.reset();
        }
      }
      firstBlock = false;
      last = bits(1) == 1;
      int type = bits(2);
      if (type == 0) {
        stored();
      } else if (type == 1) {
        codes(FIXED_LITLEN, FIXED_DIST);
      } else if (type == 2) {
        dynamic();
      } else {
        throw new ZipException("invalid deflate block type at offset " + bytePosition());
      }
    } while (!last);
  }

  /** The last byte decoded, or -1 before the first. */
  private int lastByte() {
    return out == 0 ? -1 : ring[(int) ((out - 1) & (ring.length - 1))] & 0xff;
  }

  /** The last {@code len} bytes decoded into {@link #windowCopy}. */
  private void copyWindow(int len) {
    int mask = ring.length - 1;
    int from = (int) ((out - len) & mask);
    int first = Math.min(len, ring.length - from);
    System.arraycopy(ring, from, windowCopy, 0, first);
    System.arraycopy(ring, 0, windowCopy, first, len - first);
  }

  private void stored() throws IOException {
    dropToByte();
    int len = byteAligned() | byteAligned() << 8;
    int nlen = byteAligned() | byteAligned() << 8;
    if (len != (~nlen & 0xffff)) {
      throw new ZipException("stored block length check failed at offset " + bytePosition());
    }
    for (int i = 0; i < len; i++) {
      put((byte) byteAligned());
    }
  }

  private void dynamic() throws IOException {
    int nlen = bits(5) + 257;
    int ndist = bits(5) + 1;
    int ncode = bits(4) + 4;
    if (nlen > 286 || ndist > 30) {
      throw new ZipException("bad dynamic block counts at offset " + bytePosition());
    }
    int[] clen = new int[19];
    for (int i = 0; i < ncode; i++) {
      clen[CLEN_ORDER[i]] = bits(3);
    }
    Huffman lencode = Huffman.of(clen, 19);
    int[] lengths = new int[nlen + ndist];
    int i = 0;
    while (i < nlen + ndist) {
      int sym = decode(lencode);
      if (sym < 16) {
        lengths[i++] = sym;
        continue;
      }
      int value = 0;
      int repeat;
      if (sym == 16) {
        if (i == 0) {
          throw new ZipException("repeat with no previous length at offset " + bytePosition());
        }
        value = lengths[i - 1];
        repeat = 3 + bits(2);
      } else if (sym == 17) {
        repeat = 3 + bits(3);
      } else {
        repeat = 11 + bits(7);
      }
      if (i + repeat > nlen + ndist) {
        throw new ZipException("too many code lengths at offset " + bytePosition());
      }
      while (repeat-- > 0) {
        lengths[i++] = value;
      }
    }
    if (lengths[256] == 0) {
      throw new ZipException("no end-of-block code at offset " + bytePosition());
    }
    int[] lit = java.util.Arrays.copyOfRange(lengths, 0, nlen);
    int[] dist = java.util.Arrays.copyOfRange(lengths, nlen, nlen + ndist);
    codes(Huffman.of(lit, nlen), Huffman.of(dist, ndist));
  }

  private void codes(Huffman lit, Huffman dist) throws IOException {
    int mask = ring.length - 1;
    while (true) {
      int sym = decode(lit);
      if (sym < 256) {
        put((byte) sym);
      } else if (sym == 256) {
        return;
      } else {
        sym -= 257;
        if (sym >= 29) {
          throw new ZipException("invalid length code at offset " + bytePosition());
        }
        int len = LENGTH_BASE[sym] + bits(LENGTH_EXTRA[sym]);
        int dsym = decode(dist);
        if (dsym >= 30) {
          throw new ZipException("invalid distance code at offset " + bytePosition());
        }
        int d = DIST_BASE[dsym] + bits(DIST_EXTRA[dsym]);
        if (d > out - memberOut) {
          throw new ZipException("distance too far back at offset " + bytePosition());
        }
        for (int k = 0; k < len; k++) {
          put(ring[(int) ((out - d) & mask)]);
        }
      }
    }
  }

  private void put(byte b) {
    int mask = ring.length - 1;
    if (out - crcFrom >= WINDOW) {
      flushCrc();
    }
    ring[(int) (out & mask)] = b;
    out++;
  }

  /** Adds the decoded bytes from {@link #crcFrom} on to the CRC (at most half the ring, so none is overwritten). */
  private void flushCrc() {
    int mask = ring.length - 1;
    int len = (int) (out - crcFrom);
    int from = (int) (crcFrom & mask);
    int first = Math.min(len, ring.length - from);
    crc.update(ring, from, first);
    crc.update(ring, 0, len - first);
    span.update(ring, from, first);
    span.update(ring, 0, len - first);
    crcFrom = out;
  }

  // ---- Huffman codes (canonical, decoded a bit at a time: RFC 1951 3.2.2) ----------------------------------------

  private int decode(Huffman h) throws IOException {
    int code = 0;
    int first = 0;
    int index = 0;
    for (int len = 1; len <= MAX_BITS; len++) {
      code |= bits(1);
      int count = h.count[len];
      if (code - count < first) {
        return h.symbol[index + (code - first)];
      }
      index += count;
      first += count;
      first <<= 1;
      code <<= 1;
    }
    throw new ZipException("invalid Huffman code at offset " + bytePosition());
  }

  /** A canonical code: how many codes of each length, and the symbols in code order. */
  private static final class Huffman {
    final int[] count = new int[MAX_BITS + 1];
    final int[] symbol;

    private Huffman(int n) {
      symbol = new int[n];
    }

    static Huffman of(int[] lengths, int n) throws ZipException {
      Huffman h = new Huffman(n);
      for (int i = 0; i < n; i++) {
        h.count[lengths[i]]++;
      }
      int left = 1;
      for (int len = 1; len <= MAX_BITS; len++) {
        left <<= 1;
        left -= h.count[len];
        if (left < 0) {
          throw new ZipException("over-subscribed Huffman code");
        }
      }
      int[] offs = new int[MAX_BITS + 1];
      for (int len = 1; len < MAX_BITS; len++) {
        offs[len + 1] = offs[len] + h.count[len];
      }
      for (int i = 0; i < n; i++) {
        if (lengths[i] != 0) {
          h.symbol[offs[lengths[i]]++] = i;
        }
      }
      return h;
    }
  }

  // ---- bits, LSB first --------------------------------------------------------------------------------------------

  private int bits(int n) throws IOException {
    while (bitCount < n) {
      bitBuf |= (long) nextByte() << bitCount;
      bitCount += 8;
    }
    int v = (int) (bitBuf & ((1L << n) - 1));
    bitBuf >>>= n;
    bitCount -= n;
    return v;
  }

  /** Drops the bits left in the current byte. */
  private void dropToByte() {
    int drop = bitCount & 7;
    bitBuf >>>= drop;
    bitCount -= drop;
  }

  /** The next whole byte (after {@link #dropToByte}, or between members). */
  private int byteAligned() throws IOException {
    if (bitCount >= 8) {
      int v = (int) (bitBuf & 0xff);
      bitBuf >>>= 8;
      bitCount -= 8;
      return v;
    }
    return nextByte();
  }

  private int nextByte() throws IOException {
    if (inPos >= inLen && !fill()) {
      throw new EOFException("gzip file ends early at offset " + (inBase + inLen));
    }
    return inBuf[inPos++] & 0xff;
  }

  private boolean fill() throws IOException {
    inBase += inLen;
    inPos = 0;
    inLen = 0;
    int n = in.read(inBuf, 0, inBuf.length);
    if (n <= 0) {
      return false;
    }
    inLen = n;
    return true;
  }

  /** The position of the next unread bit, in bits from the start of the file. */
  private long bitPosition() {
    return (inBase + inPos) * 8 - bitCount;
  }

  /** The position of the next unread byte (bits buffered are whole bytes here, or dropped). */
  private long bytePosition() {
    return inBase + inPos - bitCount / 8;
  }
}
