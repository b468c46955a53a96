package io.objectcommit.codecs;

import io.objectcommit.codecs.impl.BgzfOutputStream;
import io.objectcommit.codecs.impl.CodecOptions;
import io.objectcommit.codecs.impl.RangedInput;
import io.objectcommit.codecs.impl.SplitStreams;
import io.objectcommit.codecs.impl.UnusedCompressor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CompressionInputStream;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.apache.hadoop.io.compress.Compressor;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.io.compress.SplitCompressionInputStream;
import org.apache.hadoop.io.compress.SplittableCompressionCodec;

/**
 * BGZF (blocked gzip) for Hadoop and Spark: files that any gunzip reads, which Spark splits at block boundaries.
 *
 * <p>Register it in {@code io.compression.codecs}; it takes {@code .bgz} files, and {@code .gz} files too when
 * {@link CodecConstants#BGZF_CLAIM_GZ} is set, in which case a {@code .gz} file that is not BGZF is read whole by the
 * split that starts at 0, exactly as Hadoop's {@link GzipCodec} reads it. Reading a whole file without splits (and
 * every non-split use) is Hadoop's gzip reading: BGZF is multi-member gzip. Writing produces BGZF, for Spark's
 * writers through {@code .option("compression", "io.objectcommit.codecs.BgzfCodec")}.
 */
public class BgzfCodec implements SplittableCompressionCodec, Configurable {

  private Configuration conf;
  private CodecOptions options = CodecOptions.DEFAULTS;
  private GzipCodec gzip;

  @Override
  public void setConf(Configuration conf) {
    this.options = CodecOptions.from(conf);
    this.conf = conf;
    this.gzip = null;
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  /** Hadoop's gzip codec with this codec's configuration: reads whole gzip files and gives the decompressors. */
  private synchronized GzipCodec gzip() {
    if (gzip == null) {
      GzipCodec g = new GzipCodec();
      g.setConf(conf != null ? conf : new Configuration(false));
      gzip = g;
    }
    return gzip;
  }

  @Override
  public SplitCompressionInputStream createInputStream(InputStream seekableIn, Decompressor decompressor, long start,
      long end, READ_MODE readMode) throws IOException {
    // both read modes get block-aligned reads: BYBLOCK's contract, and harmless for CONTINUOUS
    InputStream in = RangedInput.open(seekableIn, start, end, conf, options);
    return SplitStreams.open(in, decompressor, start, end, gzip(),
        options.useGzipIndex() && conf != null ? conf : null);
  }

  @Override
  public CompressionOutputStream createOutputStream(OutputStream out) throws IOException {
    return new BgzfOutputStream(out, options.level());
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
    return gzip().createInputStream(in);
  }

  @Override
  public CompressionInputStream createInputStream(InputStream in, Decompressor decompressor) throws IOException {
    return gzip().createInputStream(in, decompressor);
  }

  @Override
  public Class<? extends Decompressor> getDecompressorType() {
    return gzip().getDecompressorType();
  }

  @Override
  public Decompressor createDecompressor() {
    return gzip().createDecompressor();
  }

  @Override
  public String getDefaultExtension() {
    return options.claimGz() ? CodecConstants.GZ_EXTENSION : CodecConstants.BGZF_EXTENSION;
  }
}
