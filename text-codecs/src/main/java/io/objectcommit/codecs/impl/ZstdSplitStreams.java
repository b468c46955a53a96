package io.objectcommit.codecs.impl;

import com.github.luben.zstd.ZstdInputStream;
import io.objectcommit.codecs.CodecConstants;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.io.compress.SplitCompressionInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the stream of one split of a zstd file. A file whose first frame declares a content size of at most
 * {@link CodecConstants#ZSTD_MAX_FRAME_CONTENT} (seekable zstd, and any file written in such frames), or that
 * starts with a skippable frame, is read in frames: the split at 0 from frame 0, another split from the first frame
 * that starts in it, found by trying each offset (frame magic, header, block walk, the whole frame decoded with its
 * checksum). Any other zstd file (one frame of unknown or large content, as {@code zstd} writes from a pipe) is read
 * whole by the split at 0 and the other splits read nothing. The decision is taken on the file's first header,
 * read by every split, so that all splits of a file agree. The underlying stream is only read forward.
 */
public final class ZstdSplitStreams {

  private static final Logger LOG = LoggerFactory.getLogger(ZstdSplitStreams.class);

  private ZstdSplitStreams() {
  }

  /** The stream of the split {@code [start, end)} of the file {@code in} (a {@link Seekable} at any position). */
  public static SplitCompressionInputStream open(InputStream in, long start, long end) throws IOException {
    if (!(in instanceof Seekable)) {
      throw new IOException("a split of a zstd file needs a seekable stream, not " + in.getClass().getName());
    }
    Seekable seekable = (Seekable) in;
    if (seekable.getPos() != 0) {
      seekable.seek(0);
    }
    // the split at 0 reads on from its header; another reads the header alone there
    RangedInput.expect(in, start == 0 ? end + RangedInput.MIN_TAIL : RangedInput.PROBE);
    byte[] head = SplitStreams.readUpTo(in, ZstdFormat.MAX_HEADER_SIZE);
    if (head.length == 0) {
      // an empty file: no line
      return new WholeGzipSplitInputStream(in, null, start, end);
    }
    boolean framed = readInFrames(head);
    if (start == 0) {
      InputStream whole = new SequenceInputStream(new ByteArrayInputStream(head), new FilterInputStream(in) {
        @Override
        public void close() {
          // closed with the split's stream: Hadoop's line reader asks its position after the last line
        }
      });
      if (!framed) {
        LOG.debug("zstd file not in frames of a known size: the split at 0 reads it whole");
        RangedInput.expect(in, Long.MAX_VALUE);
        return new WholeGzipSplitInputStream(in, new ZstdInputStream(whole), 0, end);
      }
      return firstFrame(in, new BlockInput(whole, 0, ZstdFormat.MAX_FRAME_SIZE), 0, end);
    }
    if (!framed) {
      LOG.debug("zstd file not in frames of a known size: split [{}, {}) reads nothing", start, end);
      return new WholeGzipSplitInputStream(in, null, start, end);
    }
    seekable.seek(start);
    // the frames that start in the split; the one after it, holding the end of its last line, in growing requests
    RangedInput.expect(in, end + RangedInput.MIN_TAIL);
    BlockInput input = new BlockInput(in, start, ZstdFormat.MAX_FRAME_SIZE);
    FrameDecoder decoder = new FrameDecoder(input);
    boolean handedOver = false;
    try {
      for (long p = start; p < end; p++) {
        if (input.ensure(p, 4) < 4) {
          break;
        }
        if (!ZstdFormat.isFrame(input.buffer(), input.index(p))) {
          continue;
        }
        int size = decoder.decode(p, false);
        if (size > 0) {
          LOG.debug("split [{}, {}) starts at the frame at {}", start, end, p);
          handedOver = true;
          return new UnitSplitInputStream(in, decoder, p, size, end);
        }
      }
    } finally {
      if (!handedOver) {
        decoder.close();
      }
    }
    LOG.debug("split [{}, {}) holds no frame start: it reads nothing", start, end);
    return new UnitSplitInputStream(in, start, end);
  }

  private static SplitCompressionInputStream firstFrame(InputStream in, BlockInput input, long start, long end)
      throws IOException {
    FrameDecoder decoder = new FrameDecoder(input);
    boolean handedOver = false;
    try {
      int size = decoder.decode(start, true);
      handedOver = true;
      return new UnitSplitInputStream(in, decoder, start, size, end);
    } finally {
      if (!handedOver) {
        decoder.close();
      }
    }
  }

  /** Whether a file that starts with {@code head} is read in frames (see the class comment). */
  static boolean readInFrames(byte[] head) {
    if (head.length >= 4 && ZstdFormat.isSkippable(head, 0)) {
      return true;
    }
    if (head.length < 5 || !ZstdFormat.isFrame(head, 0) || head.length < ZstdFormat.headerSize(head, 0)) {
      // not zstd (the split at 0 then fails as zstd does), or a truncated header
      return false;
    }
    long size = ZstdFormat.contentSize(head, 0);
    return size >= 0 && size <= CodecConstants.ZSTD_MAX_FRAME_CONTENT;
  }
}
