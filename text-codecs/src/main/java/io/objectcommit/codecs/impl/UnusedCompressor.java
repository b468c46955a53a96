package io.objectcommit.codecs.impl;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.Compressor;

/**
 * What the BGZF and seekable zstd codecs hand Hadoop's compressor pool: their output streams compress by
 * themselves, so a pooled compressor is never used (as Hadoop's bzip2 codec does with its pure-Java stream).
 */
public final class UnusedCompressor implements Compressor {

  @Override
  public void setInput(byte[] b, int off, int len) {
    throw unused();
  }

  @Override
  public boolean needsInput() {
    throw unused();
  }

  @Override
  public void setDictionary(byte[] b, int off, int len) {
    throw unused();
  }

  @Override
  public long getBytesRead() {
    throw unused();
  }

  @Override
  public long getBytesWritten() {
    throw unused();
  }

  @Override
  public void finish() {
    throw unused();
  }

  @Override
  public boolean finished() {
    throw unused();
  }

  @Override
  public int compress(byte[] b, int off, int len) {
    throw unused();
  }

  @Override
  public void reset() {
    // pooled and returned: nothing to reset
  }

  @Override
  public void end() {
    // nothing held
  }

  @Override
  public void reinit(Configuration conf) {
    // nothing configured
  }

  private static UnsupportedOperationException unused() {
    return new UnsupportedOperationException("the output streams of the BGZF and seekable zstd codecs compress by themselves");
  }
}
