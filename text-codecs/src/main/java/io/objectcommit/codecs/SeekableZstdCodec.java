package io.objectcommit.codecs;

import io.objectcommit.codecs.impl.CodecOptions;
import io.objectcommit.codecs.impl.RangedInput;
import io.objectcommit.codecs.impl.SeekableZstdOutputStream;
import io.objectcommit.codecs.impl.UnusedCompressor;
import io.objectcommit.codecs.impl.UnusedDecompressor;
import io.objectcommit.codecs.impl.ZstdSplitStreams;
import io.objectcommit.codecs.impl.ZstdWholeInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CompressionInputStream;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.apache.hadoop.io.compress.Compressor;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.io.compress.SplitCompressionInputStream;
import org.apache.hadoop.io.compress.SplittableCompressionCodec;

/**
 * Seekable zstd (facebook/zstd, contrib/seekable_format) for Hadoop and Spark: zstd files in independent frames
 * with a seek table, which any zstd decoder reads and which Spark splits at frame boundaries. zstd-jni, which Spark
 * ships, does the compression; no native Hadoop library is needed.
 *
 * <p>Register it in {@code io.compression.codecs}; it takes {@code .seekable.zst} files, and {@code .zst} files too
 * when {@link CodecConstants#ZSTD_CLAIM_ZST} is set, in which case a {@code .zst} file that is not in frames of a
 * known size (one stream-compressed frame) is read whole by the split that starts at 0. Writing produces seekable
 * zstd, for Spark's writers through {@code .option("compression", "io.objectcommit.codecs.SeekableZstdCodec")}.
 */
public class SeekableZstdCodec implements SplittableCompressionCodec, Configurable {

  private Configuration conf;
  private CodecOptions options = CodecOptions.DEFAULTS;

  @Override
  public void setConf(Configuration conf) {
    this.options = CodecOptions.from(conf);
    this.conf = conf;
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public SplitCompressionInputStream createInputStream(InputStream seekableIn, Decompressor decompressor, long start,
      long end, READ_MODE readMode) throws IOException {
    // both read modes get frame-aligned reads: BYBLOCK's contract, and harmless for CONTINUOUS
    return ZstdSplitStreams.open(RangedInput.open(seekableIn, start, end, conf, options), start, end);
  }

  @Override
  public CompressionOutputStream createOutputStream(OutputStream out) throws IOException {
    return new SeekableZstdOutputStream(out, options.zstdLevel(), options.zstdFrameSize());
  }

  @Override
  public CompressionOutputStream createOutputStream(OutputStream out, Compressor compressor) throws IOException {
    return createOutputStream(out);
  }

  @Override
  public Class<? extends Compressor> getCompressorType() {
    return UnusedCompressor.class;
  }

  @Override
  public Compressor createCompressor() {
    return new UnusedCompressor();
  }

  @Override
  public CompressionInputStream createInputStream(InputStream in) throws IOException {
    return new ZstdWholeInputStream(in);
  }

  @Override
  public CompressionInputStream createInputStream(InputStream in, Decompressor decompressor) throws IOException {
    return createInputStream(in);
  }

  @Override
  public Class<? extends Decompressor> getDecompressorType() {
    return UnusedDecompressor.class;
  }

  @Override
  public Decompressor createDecompressor() {
    return new UnusedDecompressor();
  }

  @Override
  public String getDefaultExtension() {
    return options.claimZst() ? CodecConstants.ZST_EXTENSION : CodecConstants.ZSTD_EXTENSION;
  }
}
