package io.objectcommit.codecs.impl;

import org.apache.hadoop.io.compress.Decompressor;

/**
 * What the seekable zstd codec hands Hadoop's decompressor pool: its input streams decompress with zstd-jni by
 * themselves, so a pooled decompressor is never used.
 */
public final class UnusedDecompressor implements Decompressor {

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
  public boolean needsDictionary() {
    throw unused();
  }

  @Override
  public boolean finished() {
    throw unused();
  }

  @Override
  public int decompress(byte[] b, int off, int len) {
    throw unused();
  }

  @Override
  public int getRemaining() {
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

  private static UnsupportedOperationException unused() {
    return new UnsupportedOperationException("the input streams of the seekable zstd codec decompress by themselves");
  }
}
