package io.objectcommit.codecs.impl;

import io.objectcommit.codecs.GzipIndexMismatchException;
import io.objectcommit.codecs.files.GzipIndex;
import java.io.EOFException;
import java.io.IOException;
import java.util.Base64;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * Decodes a plain gzip file with its {@link GzipIndex} in units that run from one checkpoint to the next, for
 * {@link UnitSplitInputStream}: a unit's offset is the byte in which its checkpoint starts, its compressed size the
 * distance to the next one's. The JDK's inflater does the decoding; at a checkpoint inside a member it is resumed
 * with the checkpoint's window ({@link InflaterAtBlock}), and units that follow each other are decoded by the same
 * inflater without resuming again.
 */
final class GzipIndexDecoder implements UnitDecoder {

  /** Compressed bytes handed to the inflater at a time. */
  private static final int CHUNK = 64 * 1024;

  private final BlockInput input;
  private final GzipIndex index;
  /** The file, for messages. */
  private final String file;
  private final CRC32 crc = new CRC32();
  private final List<GzipIndex.Checkpoint> checkpoints;
  private byte[] data = new byte[0];
  private int dataLength;
  /** The inflater inside a member, or null between members. */
  private Inflater inflater;
  /** The next compressed byte to give the inflater (or where the next member's header starts). */
  private long inPos;
  /** Bytes the inflater produces next that belong to a resumed window, not to the file. */
  private int drop;
  /** The checkpoint of the unit decoded last, -1 before the first. */
  private int current = -1;

  GzipIndexDecoder(BlockInput input, GzipIndex index, String file) {
    this.input = input;
    this.index = index;
    this.file = file;
    this.checkpoints = index.checkpoints;
  }

  /** The checkpoint whose byte is {@code offset}, or -1. */
  int find(long offset) {
    int lo = 0;
    int hi = checkpoints.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      long b = checkpoints.get(mid).byteOffset();
      if (b == offset) {
        return mid;
      } else if (b < offset) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return -1;
  }

  /** The first checkpoint of {@code index} at or after byte {@code offset}, or -1 when there is none. */
  static int firstAtOrAfter(GzipIndex index, long offset) {
    List<GzipIndex.Checkpoint> checkpoints = index.checkpoints;
    for (int i = 0; i < checkpoints.size(); i++) {
      if (checkpoints.get(i).byteOffset() >= offset) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public int decode(long offset, boolean strict) throws IOException {
    if (offset >= index.length) {
      return 0;
    }
    int i = find(offset);
    if (i < 0) {
      if (strict) {
        throw new ZipException("no checkpoint of the gzip index at offset " + offset);
      }
      return NOT_A_UNIT;
    }
    if (current < 0 || i != current + 1) {
      resume(checkpoints.get(i));
    }
    GzipIndex.Checkpoint c = checkpoints.get(i);
    boolean last = i + 1 == checkpoints.size();
    long want = (last ? index.uncompressedLength : checkpoints.get(i + 1).out) - c.out;
    if (want > Integer.MAX_VALUE - 8) {
      throw new ZipException("a unit of " + want + " bytes at offset " + offset + ": checkpoints too far apart");
    }
    if (data.length < want) {
      data = new byte[(int) want];
    }
    dataLength = 0;
    // a failed unit leaves the inflater where it stopped: the next unit is resumed at its checkpoint
    current = -1;
    fill((int) want, offset);
    crc.reset();
    crc.update(data, 0, dataLength);
    if (crc.getValue() != c.crc) {
      throw new GzipIndexMismatchException(file, offset);
    }
    current = i;
    return (int) ((last ? index.length : checkpoints.get(i + 1).byteOffset()) - offset);
  }

  /** Sets the inflater up at checkpoint {@code c}. */
  private void resume(GzipIndex.Checkpoint c) throws IOException {
    endInflater();
    drop = 0;
    if (c.member) {
      inPos = c.byteOffset();
      return;
    }
    byte[] window = inflateWindow(c);
    int bit = (int) (c.bit & 7);
    long first = c.byteOffset();
    if (input.ensure(first, 1) < 1) {
      throw new EOFException("gzip file ends before its checkpoint at offset " + first);
    }
    int firstByte = input.buffer()[input.index(first)] & 0xff;
    byte[] prefix = InflaterAtBlock.prefix(window, window.length, bit, firstByte);
    inflater = new Inflater(true);
    inflater.setInput(prefix);
    drop = window.length;
    inPos = bit == 0 ? first : first + 1;
  }

  private static byte[] inflateWindow(GzipIndex.Checkpoint c) throws ZipException {
    Inflater inf = new Inflater(true);
    try {
      inf.setInput(Base64.getDecoder().decode(c.window));
      byte[] window = new byte[c.windowLength];
      int n = 0;
      while (n < window.length && !inf.finished()) {
        int r = inf.inflate(window, n, window.length - n);
        if (r == 0 && (inf.needsInput() || inf.needsDictionary())) {
          break;
        }
        n += r;
      }
      if (n != window.length) {
        throw new ZipException("gzip index: the window of the checkpoint at bit " + c.bit + " is damaged");
      }
      return window;
    } catch (DataFormatException e) {
      throw new ZipException("gzip index: the window of the checkpoint at bit " + c.bit + " is damaged: "
          + e.getMessage());
    } finally {
      inf.end();
    }
  }

  /** Decodes {@code want} bytes into {@link #data}, across member ends. */
  private void fill(int want, long unitOffset) throws IOException {
    byte[] scratch = drop > 0 ? new byte[drop] : null;
    try {
      while (dataLength < want) {
        if (inflater == null) {
          inPos = skipHeader(inPos);
          inflater = new Inflater(true);
        }
        int n;
        if (drop > 0) {
          n = inflater.inflate(scratch, scratch.length - drop, drop);
          drop -= n;
        } else {
          n = inflater.inflate(data, dataLength, want - dataLength);
          dataLength += n;
        }
        if (n > 0) {
          continue;
        }
        if (inflater.finished()) {
          // the member's trailer (CRC-32, length) follows what the inflater consumed
          inPos = inPos - inflater.getRemaining() + 8;
          endInflater();
        } else if (inflater.needsInput()) {
          int have = input.ensure(inPos, CHUNK);
          if (have <= 0) {
            throw new EOFException("gzip file ends early, in the unit at offset " + unitOffset);
          }
          inflater.setInput(input.buffer(), input.index(inPos), have);
          inPos += have;
        } else {
          throw new ZipException("gzip stream stalled in the unit at offset " + unitOffset);
        }
      }
    } catch (DataFormatException e) {
      throw new ZipException("corrupt deflate data in the unit at offset " + unitOffset + ": " + e.getMessage());
    }
  }

  /** Reads the gzip member header at {@code offset}; returns where its deflate data starts. */
  private long skipHeader(long offset) throws IOException {
    long p = offset;
    if (b(p) != 0x1f || b(p + 1) != 0x8b || b(p + 2) != 8) {
      throw new ZipException("no gzip member header at offset " + offset);
    }
    int flags = b(p + 3);
    p += 10;
    if ((flags & 4) != 0) {
      p += 2 + (b(p) | b(p + 1) << 8);
    }
    if ((flags & 8) != 0) {
      while (b(p++) != 0) {
        // file name
      }
    }
    if ((flags & 16) != 0) {
      while (b(p++) != 0) {
        // comment
      }
    }
    if ((flags & 2) != 0) {
      p += 2;
    }
    return p;
  }

  private int b(long offset) throws IOException {
    if (input.ensure(offset, 1) < 1) {
      throw new EOFException("gzip file ends in a member header at offset " + offset);
    }
    return input.buffer()[input.index(offset)] & 0xff;
  }

  @Override
  public byte[] data() {
    return data;
  }

  @Override
  public int dataLength() {
    return dataLength;
  }

  private void endInflater() {
    if (inflater != null) {
      inflater.end();
      inflater = null;
    }
  }

  @Override
  public void close() {
    endInflater();
  }
}
