package io.objectcommit.codecs.impl;

import io.objectcommit.codecs.GzipIndexes;
import io.objectcommit.codecs.files.GzipIndex;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.io.compress.SplitCompressionInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the stream of one split of a gzip file: BGZF is read from the split's first block, any other gzip whole by
 * the split that starts at 0. Whether the file is BGZF is decided by its first header, read by every split, so that
 * all splits of a file agree. The underlying stream is only ever read forward (S3A keeps its sequential reads).
 */
public final class SplitStreams {

  private static final Logger LOG = LoggerFactory.getLogger(SplitStreams.class);

  private SplitStreams() {
  }

  /**
   * The stream of the split {@code [start, end)} of the file {@code in} (a {@link Seekable} at any position).
   * {@code gzip} reads a whole gzip file (Hadoop's {@code GzipCodec}) with {@code decompressor}.
   */
  public static SplitCompressionInputStream open(InputStream in, Decompressor decompressor, long start, long end,
      CompressionCodec gzip) throws IOException {
    return open(in, decompressor, start, end, gzip, null);
  }

  /**
   * As {@link #open(InputStream, Decompressor, long, long, CompressionCodec)}; a plain gzip file is read with its
   * index ({@link GzipIndexes}) when {@code indexConf} is given (the setting {@code use}) and the split is opened
   * in a Spark task that names the file ({@link SparkInputFile}) and the file has a current index. Every split of
   * a file decides alike: by the same index, or (none) as without.
   */
  public static SplitCompressionInputStream open(InputStream in, Decompressor decompressor, long start, long end,
      CompressionCodec gzip, Configuration indexConf) throws IOException {
    if (!(in instanceof Seekable)) {
      throw new IOException("a split of a BGZF file needs a seekable stream, not " + in.getClass().getName());
    }
    Seekable seekable = (Seekable) in;
    if (seekable.getPos() != 0) {
      seekable.seek(0);
    }
    if (start == 0) {
      RangedInput.expect(in, end + BgzfFormat.MAX_BLOCK_SIZE);
      return openFirst(in, decompressor, start, end, gzip, indexConf);
    }
    RangedInput.expect(in, RangedInput.PROBE);
    byte[] head = readHeader(in);
    if (BgzfFormat.blockSize(head, 0, head.length) < 0) {
      SplitCompressionInputStream indexed = withIndex(in, null, start, end, indexConf);
      if (indexed != null) {
        return indexed;
      }
      LOG.debug("not BGZF: split [{}, {}) reads nothing, the split at 0 reads the file", start, end);
      return new WholeGzipSplitInputStream(in, null, start, end);
    }
    seekable.seek(start);
    // the blocks that start in the split, and the one after it, which holds the end of its last line
    RangedInput.expect(in, end + BgzfFormat.MAX_BLOCK_SIZE);
    BlockInput input = new BlockInput(in, start);
    BlockDecoder decoder = new BlockDecoder(input);
    boolean handedOver = false;
    try {
      for (long p = start; p < end; p++) {
        int have = input.ensure(p, 4);
        if (have < 4) {
          break;
        }
        int i = input.index(p);
        if (!BgzfFormat.gzipWithExtra(input.buffer(), i)) {
          continue;
        }
        int size = decoder.decode(p, false);
        if (size > 0) {
          LOG.debug("split [{}, {}) starts at the block at {}", start, end, p);
          handedOver = true;
          return new UnitSplitInputStream(in, decoder, p, size, end);
        }
        if (size == 0) {
          break;
        }
      }
    } finally {
      if (!handedOver) {
        decoder.close();
      }
    }
    LOG.debug("split [{}, {}) holds no block start: it reads nothing", start, end);
    return new UnitSplitInputStream(in, start, end);
  }

  /**
   * The split read with the file's index, or null when it is not to be or has none; {@code read}, if not null, holds
   * the bytes already read from {@code in}.
   */
  private static SplitCompressionInputStream withIndex(InputStream in, BlockInput read, long start, long end,
      Configuration indexConf) throws IOException {
    if (indexConf == null) {
      return null;
    }
    Optional<Path> file = SparkInputFile.of(start, end);
    if (file.isEmpty()) {
      LOG.debug("split [{}, {}): no Spark task names its file, so no gzip index is looked for", start, end);
      return null;
    }
    Optional<GzipIndex> index = GzipIndexes.find(file.get(), indexConf);
    if (index.isEmpty()) {
      return null;
    }
    LOG.debug("split [{}, {}) of {} is read with its gzip index", start, end, file.get());
    return GzipIndexSplits.open(in, read, index.get(), file.get().toString(), start, end);
  }

  private static SplitCompressionInputStream openFirst(InputStream in, Decompressor decompressor, long start,
      long end, CompressionCodec gzip, Configuration indexConf) throws IOException {
    BlockInput input = new BlockInput(in, 0);
    int have = input.ensure(0, BgzfFormat.FIXED_HEADER_SIZE);
    boolean bgzf = false;
    if (have == BgzfFormat.FIXED_HEADER_SIZE && BgzfFormat.gzipWithExtra(input.buffer(), 0)) {
      // the same test as readHeader's for the other splits: the fixed header and the whole extra field
      int header = BgzfFormat.FIXED_HEADER_SIZE + BgzfFormat.extraLength(input.buffer(), 0);
      bgzf = BgzfFormat.blockSize(input.buffer(), 0, input.ensure(0, header)) >= 0;
    }
    byte[] b = input.buffer();
    if (bgzf) {
      BlockDecoder decoder = new BlockDecoder(input);
      boolean handedOver = false;
      try {
        int size = decoder.decode(0, true);
        handedOver = true;
        return new UnitSplitInputStream(in, decoder, 0, size, end);
      } finally {
        if (!handedOver) {
          decoder.close();
        }
      }
    }
    if (have == 0) {
      // an empty file: no line (Hadoop's gzip stream would fail on the missing header)
      return new WholeGzipSplitInputStream(in, null, 0, end);
    }
    SplitCompressionInputStream indexed = withIndex(in, input, start, end, indexConf);
    if (indexed != null) {
      return indexed;
    }
    // plain gzip: Hadoop's gzip stream gets the bytes already read, then the rest of the file
    RangedInput.expect(in, Long.MAX_VALUE);
    int buffered = input.bufferedFrom(0);
    // SequenceInputStream closes a stream it has read to the end: the file must stay open, Hadoop's line reader asks
    // its position after the last line (closed with this split's stream)
    InputStream rest = new FilterInputStream(in) {
      @Override
      public void close() {
        // closed by WholeGzipSplitInputStream.close()
      }
    };
    InputStream whole = new SequenceInputStream(new ByteArrayInputStream(b, 0, buffered), rest);
    return new WholeGzipSplitInputStream(in, gzip.createInputStream(whole, decompressor), 0, end);
  }

  /**
   * The file's first gzip header up to its extra field included (fewer bytes at the end of the file): whether the
   * file is BGZF is decided on these bytes alone, by every split alike.
   */
  private static byte[] readHeader(InputStream in) throws IOException {
    byte[] fixed = readUpTo(in, BgzfFormat.FIXED_HEADER_SIZE);
    if (fixed.length < BgzfFormat.FIXED_HEADER_SIZE || !BgzfFormat.gzipWithExtra(fixed, 0)) {
      return fixed;
    }
    byte[] extra = readUpTo(in, BgzfFormat.extraLength(fixed, 0));
    byte[] head = new byte[fixed.length + extra.length];
    System.arraycopy(fixed, 0, head, 0, fixed.length);
    System.arraycopy(extra, 0, head, fixed.length, extra.length);
    return head;
  }

  static byte[] readUpTo(InputStream in, int n) throws IOException {
    byte[] b = new byte[n];
    int got = 0;
    while (got < n) {
      int r = in.read(b, got, n - got);
      if (r < 0) {
        break;
      }
      got += r;
    }
    if (got == n) {
      return b;
    }
    byte[] shorter = new byte[got];
    System.arraycopy(b, 0, shorter, 0, got);
    return shorter;
  }
}
