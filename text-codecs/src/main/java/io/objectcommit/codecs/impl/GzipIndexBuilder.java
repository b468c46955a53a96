package io.objectcommit.codecs.impl;

import io.objectcommit.codecs.files.GzipIndex;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Base64;
import java.util.zip.Deflater;

/**
 * Builds the {@link GzipIndex} of a plain gzip file in one pass ({@link DeflateScanner}): a checkpoint at the file's
 * start, then at the first member or block start after every {@code spacing} decoded bytes. A place right after a
 * carriage return is passed over (the next one is taken): a split that began there would read the line feed after
 * it as an empty line.
 */
public final class GzipIndexBuilder {

  private GzipIndexBuilder() {
  }

  /**
   * The index of the gzip file {@code in} (read from its first byte to its end), {@code length} bytes long, with
   * {@code etag} (or null) as its identity.
   */
  public static GzipIndex build(InputStream in, long length, String etag, long spacing) throws IOException {
    if (spacing < DeflateScanner.WINDOW) {
      throw new IllegalArgumentException("checkpoint spacing " + spacing + " is below 32 KiB");
    }
    GzipIndex index = new GzipIndex();
    index.length = length;
    index.etag = etag;
    index.spacing = spacing;
    Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    try {
      index.uncompressedLength = DeflateScanner.scan(in, new DeflateScanner.Listener() {
        private long lastOut = -1;
        private long lastByteOffset = -1;

        private boolean wanted(long byteOffset, long out, int lastByte) {
          return lastOut < 0 || (lastByte != '\r' && out - lastOut >= spacing && byteOffset > lastByteOffset);
        }

        private GzipIndex.Checkpoint add(long bit, long out, long spanCrc) {
          if (!index.checkpoints.isEmpty()) {
            index.checkpoints.get(index.checkpoints.size() - 1).crc = spanCrc;
          }
          GzipIndex.Checkpoint c = new GzipIndex.Checkpoint();
          c.bit = bit;
          c.out = out;
          index.checkpoints.add(c);
          lastOut = out;
          lastByteOffset = bit >>> 3;
          return c;
        }

        @Override
        public boolean memberStart(long offset, long out, int lastByte, long spanCrc) {
          // a member's first block follows its header: its start is this checkpoint
          if (!wanted(offset, out, lastByte)) {
            return false;
          }
          add(offset * 8, out, spanCrc).member = true;
          return true;
        }

        @Override
        public boolean blockStart(long bitOffset, long out, byte[] window, int windowLength, int lastByte,
            long spanCrc) {
          if (!wanted(bitOffset >>> 3, out, lastByte)) {
            return false;
          }
          GzipIndex.Checkpoint c = add(bitOffset, out, spanCrc);
          c.windowLength = windowLength;
          c.window = Base64.getEncoder().encodeToString(deflate(deflater, window, windowLength));
          return true;
        }

        @Override
        public void end(long out, long spanCrc) {
          if (!index.checkpoints.isEmpty()) {
            index.checkpoints.get(index.checkpoints.size() - 1).crc = spanCrc;
          }
        }
      });
    } finally {
      deflater.end();
    }
    index.validate();
    return index;
  }

  private static byte[] deflate(Deflater deflater, byte[] data, int length) {
    deflater.reset();
    deflater.setInput(data, 0, length);
    deflater.finish();
    ByteArrayOutputStream out = new ByteArrayOutputStream(length / 2 + 64);
    byte[] buf = new byte[8192];
    while (!deflater.finished()) {
      out.write(buf, 0, deflater.deflate(buf));
    }
    return out.toByteArray();
  }
}
