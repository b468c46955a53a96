package io.objectcommit.codecs.impl;

import io.objectcommit.codecs.files.GzipIndex;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.io.compress.SplitCompressionInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the stream of one split of a plain gzip file that has a {@link GzipIndex}: the split reads from the first
 * checkpoint at or after its start (nothing when that is at or after its end), unit after unit, as
 * {@link UnitSplitInputStream} reads BGZF blocks; so every line is read by exactly one split.
 */
public final class GzipIndexSplits {

  private static final Logger LOG = LoggerFactory.getLogger(GzipIndexSplits.class);

  /** Compressed bytes read from the file at a time. */
  private static final int READ_SIZE = 64 * 1024;

  private GzipIndexSplits() {
  }

  /**
   * The stream of the split {@code [start, end)} of the gzip file {@code in} (seekable), indexed by {@code index};
   * {@code file} names it in messages.
   */
  public static SplitCompressionInputStream open(InputStream in, GzipIndex index, String file, long start, long end)
      throws IOException {
    return open(in, null, index, file, start, end);
  }

  /**
   * As {@link #open(InputStream, GzipIndex, String, long, long)}, going on from {@code read}, the bytes already read
   * from {@code in} (the first split has read the file's header), when it holds the first checkpoint or an earlier
   * byte: {@code in} is then not sought back, which would make S3A's default input policy switch to random reads (a
   * ranged GET per read of the decoder, so hundreds for a piece of 32 MB).
   */
  static SplitCompressionInputStream open(InputStream in, BlockInput read, GzipIndex index, String file, long start,
      long end) throws IOException {
    if (!(in instanceof Seekable)) {
      throw new IOException("a split of an indexed gzip file needs a seekable stream, not " + in.getClass().getName());
    }
    int first = GzipIndexDecoder.firstAtOrAfter(index, start);
    if (first < 0 || index.checkpoints.get(first).byteOffset() >= end) {
      LOG.debug("split [{}, {}) holds no checkpoint of the gzip index: it reads nothing", start, end);
      return new UnitSplitInputStream(in, start, end);
    }
    long offset = index.checkpoints.get(first).byteOffset();
    RangedInput.expect(in, readEnd(index, end));
    BlockInput input = read;
    if (input == null || !input.canServe(offset, READ_SIZE)) {
      ((Seekable) in).seek(offset);
      input = new BlockInput(in, offset, READ_SIZE);
    }
    GzipIndexDecoder decoder = new GzipIndexDecoder(input, index, file);
    boolean handedOver = false;
    try {
      int size = decoder.decode(offset, true);
      handedOver = true;
      LOG.debug("split [{}, {}) starts at the checkpoint at byte {}", start, end, offset);
      return new UnitSplitInputStream(in, decoder, offset, size, end);
    } finally {
      if (!handedOver) {
        decoder.close();
      }
    }
  }

  /**
   * Where the bytes a split ending at {@code end} reads end: the unit that starts at or after its end is read whole
   * (it holds the end of the split's last line), so up to the checkpoint after that unit's, or the file's end.
   */
  static long readEnd(GzipIndex index, long end) {
    int last = GzipIndexDecoder.firstAtOrAfter(index, end);
    if (last < 0 || last + 1 >= index.checkpoints.size()) {
      return Long.MAX_VALUE;
    }
    // the byte that holds the checkpoint's first bits too
    return index.checkpoints.get(last + 1).byteOffset() + 1;
  }
}
