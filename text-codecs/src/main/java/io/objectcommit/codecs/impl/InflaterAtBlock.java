package io.objectcommit.codecs.impl;

import java.io.ByteArrayOutputStream;

/**
 * Lets {@code java.util.zip.Inflater} (raw deflate) resume a deflate stream at a block that starts in the middle of
 * a byte, with the 32 KiB window that preceded it: the inflater is given a made-up prefix first, then the stream's
 * bytes from that block's first byte on.
 *
 * <p>The prefix is deflate that decodes to the window and then to nothing: a stored block holding the window (the
 * inflater's history afterwards, so back references into it work; its output is dropped), then empty blocks whose
 * lengths add up to the block's bit position within its byte (an empty fixed-code block is 10 bits; an empty
 * dynamic-code block, as written here, 97). The prefix's last bits share a byte with the block's first bits: that
 * byte is the stream's own with its low bits replaced. Zlib has {@code inflatePrime} for this; the JDK's inflater
 * does not.
 */
final class InflaterAtBlock {

  private InflaterAtBlock() {
  }

  /**
   * The bytes to give the inflater before the stream's bytes that follow {@code firstByte}: {@code firstByte} is the
   * byte in which the block starts at bit {@code bit} (0 to 7, counted from the least significant); the inflater's
   * first {@code windowLength} bytes of output are the window's and are to be dropped. With {@code bit} 0 the prefix
   * ends before {@code firstByte}, which is then given as it is with the following ones.
   */
  static byte[] prefix(byte[] window, int windowLength, int bit, int firstByte) {
    if (bit < 0 || bit > 7 || windowLength > DeflateScanner.WINDOW) {
      throw new IllegalArgumentException("bit " + bit + ", window " + windowLength);
    }
    BitWriter w = new BitWriter();
    if (windowLength > 0) {
      w.bits(0, 1); // not the last block
      w.bits(0, 2); // stored
      w.alignToByte();
      w.bits(windowLength, 16);
      w.bits(~windowLength & 0xffff, 16);
      w.bytes(window, windowLength);
    }
    // empty blocks: dynamic (97 bits, 1 mod 8) when the bit is odd, then fixed ones (10 bits, 2 mod 8)
    if (bit % 2 == 1) {
      emptyDynamic(w);
    }
    for (int i = 0; i < bit / 2; i++) {
      emptyFixed(w);
    }
    if (w.pending != bit) {
      throw new IllegalStateException("prefix ends at bit " + w.pending + ", not " + bit);
    }
    if (bit > 0) {
      w.out.write(w.acc | (firstByte & (0xff << bit)));
    }
    return w.out.toByteArray();
  }

  /** An empty block with the fixed codes: not last, type 1, end-of-block (seven 0 bits). */
  private static void emptyFixed(BitWriter w) {
    w.bits(0, 1);
    w.bits(1, 2);
    w.code(0, 7);
  }

  /**
   * An empty block with dynamic codes: 257 literal/length codes of which only literal 0 and end-of-block have a
   * length (1 each), one distance code of length 0, all 19 code length code lengths sent (the code length code:
   * symbol 18 of length 1, symbols 0 and 1 of length 2), then end-of-block.
   */
  private static void emptyDynamic(BitWriter w) {
    w.bits(0, 1);
    w.bits(2, 2);
    w.bits(0, 5); // 257 literal/length codes
    w.bits(0, 5); // 1 distance code
    w.bits(15, 4); // 19 code length code lengths
    int[] order = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    for (int sym : order) {
      w.bits(sym == 18 ? 1 : sym == 0 || sym == 1 ? 2 : 0, 3);
    }
    // canonical codes of the code length code: 18 -> 0, 0 -> 10, 1 -> 11
    w.code(0b11, 2); // literal 0: length 1
    w.code(0b0, 1); // 18: 138 zero lengths (literals 1-138)
    w.bits(127, 7);
    w.code(0b0, 1); // 18: 117 zero lengths (literals 139-255)
    w.bits(106, 7);
    w.code(0b11, 2); // end-of-block: length 1
    w.code(0b10, 2); // distance code 0: length 0
    // canonical literal/length code: literal 0 -> 0, end-of-block -> 1
    w.code(0b1, 1);
  }

  /** Writes bits least significant first, as deflate packs them. */
  private static final class BitWriter {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    int acc;
    int pending;

    /** {@code n} bits of {@code value}, least significant first (numbers and extra bits). */
    void bits(int value, int n) {
      for (int i = 0; i < n; i++) {
        bit((value >>> i) & 1);
      }
    }

    /** A Huffman code of {@code n} bits, most significant first. */
    void code(int code, int n) {
      for (int i = n - 1; i >= 0; i--) {
        bit((code >>> i) & 1);
      }
    }

    void bit(int b) {
      acc |= b << pending;
      if (++pending == 8) {
        out.write(acc);
        acc = 0;
        pending = 0;
      }
    }

    void alignToByte() {
      if (pending > 0) {
        out.write(acc);
        acc = 0;
        pending = 0;
      }
    }

    void bytes(byte[] b, int n) {
      out.write(b, 0, n);
    }
  }
}
