package io.objectcommit.codecs.impl;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.io.compress.SplitCompressionInputStream;

/**
 * A file that is not read split, split by Spark all the same (the codec claims its extension): the split that starts
 * at 0 reads the whole file (a gzip file that is not BGZF through Hadoop's gzip stream, a zstd file not in frames of
 * a known size through zstd-jni's stream), every other split reads nothing. {@link #getPos()} stays
 * within the first split until the file is read, so that Hadoop's line reader reads every line there.
 */
public final class WholeGzipSplitInputStream extends SplitCompressionInputStream {

  private final InputStream gzip;
  private final Seekable file;

  /** {@code gzip} is the whole file's content, decompressed (null: nothing, for splits that do not start at 0). */
  WholeGzipSplitInputStream(InputStream in, InputStream gzip, long start, long end) throws IOException {
    super(in, start, end);
    this.gzip = gzip;
    this.file = in instanceof Seekable ? (Seekable) in : null;
  }

  @Override
  public int read() throws IOException {
    return gzip == null ? -1 : gzip.read();
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    return gzip == null ? -1 : gzip.read(b, off, len);
  }

  @Override
  public long getPos() throws IOException {
    if (gzip == null || file == null) {
      return getAdjustedStart();
    }
    return Math.min(file.getPos(), getAdjustedEnd());
  }

  @Override
  public void resetState() {
    throw new UnsupportedOperationException("a whole-file gzip split stream cannot be reset");
  }

  @Override
  public void close() throws IOException {
    try {
      if (gzip != null) {
        gzip.close();
      }
    } finally {
      super.close();
    }
  }
}
