package io.objectcommit.codecs.impl;

import io.objectcommit.codecs.BgzfCodec;
import io.objectcommit.codecs.files.GzipIndex;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.io.compress.SplitCompressionInputStream;

/**
 * A codec for files named {@code *.igz} whose splits are read with the index a test put in {@link #index}: Hadoop's
 * LineRecordReader over {@link GzipIndexSplits}, before the codec that finds an index by itself exists.
 */
class IndexedGzipTestCodec extends BgzfCodec {

  static volatile GzipIndex index;

  @Override
  public SplitCompressionInputStream createInputStream(InputStream seekableIn, Decompressor decompressor, long start,
      long end, READ_MODE readMode) throws IOException {
    return GzipIndexSplits.open(seekableIn, index, "the test file", start, end);
  }

  @Override
  public String getDefaultExtension() {
    return ".igz";
  }
}
