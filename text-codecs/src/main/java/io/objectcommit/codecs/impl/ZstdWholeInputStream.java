package io.objectcommit.codecs.impl;

import com.github.luben.zstd.ZstdInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.io.compress.CompressionInputStream;

/** A whole zstd file, every frame in turn (skippable frames skipped), as zstd-jni's stream decodes it. */
public final class ZstdWholeInputStream extends CompressionInputStream {

  private final ZstdInputStream zstd;

  public ZstdWholeInputStream(InputStream in) throws IOException {
    super(in);
    this.zstd = new ZstdInputStream(in);
  }

  @Override
  public int read() throws IOException {
    return zstd.read();
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    return zstd.read(b, off, len);
  }

  @Override
  public void resetState() {
    throw new UnsupportedOperationException("a zstd stream cannot be reset");
  }

  @Override
  public void close() throws IOException {
    try {
      zstd.close();
    } finally {
      super.close();
    }
  }
}
