package io.objectcommit.codecs.impl;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.BZip2Codec;
import org.apache.hadoop.util.ReflectionUtils;

/** What a compressed object to recompress is, told by its first bytes. */
public enum SourceFormat {
  /** Gzip (one member or several), not BGZF. */
  GZIP("gzip"),
  /** BGZF: gzip whose first member carries the {@code BC} extra subfield. */
  BGZF("BGZF"),
  /** bzip2 (one stream or several). */
  BZIP2("bzip2"),
  /** Seekable zstd or any zstd frame. */
  ZSTD("zstd");

  /** How many first bytes {@link #detect} is given (a BGZF header with a long extra field fits). */
  public static final int HEADER_BYTES = 1024;

  private final String label;

  SourceFormat(String label) {
    this.label = label;
  }

  /** The name printed for it. */
  public String label() {
    return label;
  }

  /**
   * The format of a stream starting with {@code head[0, len)}, or null when it is none of these. BGZF is recognized
   * as the codec's reader recognizes it (gzip magic, FEXTRA, a {@code BC} subfield of length 2).
   */
  public static SourceFormat detect(byte[] head, int len) {
    if (len >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b) {
      if (len >= 4 && BgzfFormat.gzipWithExtra(head, 0) && BgzfFormat.blockSize(head, 0, len) > 0) {
        return BGZF;
      }
      return GZIP;
    }
    if (len >= 4 && head[0] == 'B' && head[1] == 'Z' && head[2] == 'h' && head[3] >= '1' && head[3] <= '9') {
      return BZIP2;
    }
    if (len >= 4 && (ZstdFormat.isFrame(head, 0) || ZstdFormat.isSkippable(head, 0))) {
      return ZSTD;
    }
    return null;
  }

  /**
   * The uncompressed bytes of {@code compressed} (which starts at the format's first byte): gzip and BGZF through
   * java.util.zip (every member, one after the other), bzip2 through Hadoop's pure-Java bzip2 decoder (every
   * stream).
   */
  public InputStream decompress(InputStream compressed, Configuration conf) throws IOException {
    switch (this) {
      case GZIP:
      case BGZF:
        return new GZIPInputStream(new AlwaysMore(compressed), 64 * 1024);
      case BZIP2:
        BZip2Codec codec = ReflectionUtils.newInstance(BZip2Codec.class, conf);
        return codec.createInputStream(compressed);
      default:
        throw new IOException("cannot recompress " + label + " input");
    }
  }

  /**
   * GZIPInputStream reads a next member only if bytes are left in its buffer or {@code available()} says more may
   * come; a network stream answers 0 at a member boundary that falls at its buffer's end, and the rest of the object
   * would be dropped silently. This stream always says more may come: at the real end, reading the next header
   * meets EOF, which GZIPInputStream takes for the end of the last member.
   */
  private static final class AlwaysMore extends FilterInputStream {
    AlwaysMore(InputStream in) {
      super(in);
    }

    @Override
    public int available() {
      return 1;
    }
  }
}
