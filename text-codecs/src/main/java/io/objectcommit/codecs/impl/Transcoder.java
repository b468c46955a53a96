package io.objectcommit.codecs.impl;

import io.objectcommit.codecs.Recompression;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.CRC32;
import org.apache.hadoop.io.compress.CompressionOutputStream;

/**
 * Streams uncompressed bytes into a BGZF or seekable zstd writer, counting what passes: bytes, lines and the CRC-32
 * of the uncompressed stream (what the source decompresses to), and the compressed bytes written. Memory is one
 * read buffer and the writer's unit buffer, whatever the size of the stream.
 */
public final class Transcoder {

  private static final int BUFFER = 64 * 1024;

  private Transcoder() {
  }

  /** What passed through. */
  public static final class Totals {
    private final long uncompressedBytes;
    private final long lines;
    private final long crc32;
    private final long compressedBytes;

    Totals(long uncompressedBytes, long lines, long crc32, long compressedBytes) {
      this.uncompressedBytes = uncompressedBytes;
      this.lines = lines;
      this.crc32 = crc32;
      this.compressedBytes = compressedBytes;
    }

    public long uncompressedBytes() {
      return uncompressedBytes;
    }

    /** Lines as Hadoop's line reader counts them: newlines, plus a last line without one. */
    public long lines() {
      return lines;
    }

    public long crc32() {
      return crc32;
    }

    public long compressedBytes() {
      return compressedBytes;
    }
  }

  /**
   * Copies {@code uncompressed} to {@code sink} compressed as {@code format}; the writer is finished (BGZF's EOF
   * block, zstd's seek table) but {@code sink} is left open for the caller to complete or abort.
   */
  public static Totals copy(InputStream uncompressed, Recompression.Format format, CodecOptions options,
      OutputStream sink) throws IOException {
    CountingOutputStream counted = new CountingOutputStream(sink);
    CompressionOutputStream writer = format == Recompression.Format.BGZF
        ? new BgzfOutputStream(counted, options.level())
        : new SeekableZstdOutputStream(counted, options.zstdLevel(), options.zstdFrameSize());
    CRC32 crc = new CRC32();
    byte[] buf = new byte[BUFFER];
    long bytes = 0;
    long newlines = 0;
    byte last = '\n';
    try {
      int n;
      while ((n = uncompressed.read(buf)) > 0) {
        crc.update(buf, 0, n);
        for (int i = 0; i < n; i++) {
          if (buf[i] == '\n') {
            newlines++;
          }
        }
        last = buf[n - 1];
        bytes += n;
        writer.write(buf, 0, n);
      }
      writer.finish();
    } finally {
      // releases the writer's buffers and native context; the counting stream does not pass close() on
      writer.close();
    }
    long lines = newlines + (bytes > 0 && last != '\n' ? 1 : 0);
    return new Totals(bytes, lines, crc.getValue(), counted.count);
  }

  /** Counts bytes and keeps {@code close()} from reaching the sink (the caller decides how the sink ends). */
  private static final class CountingOutputStream extends FilterOutputStream {
    private long count;

    CountingOutputStream(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }

    @Override
    public void close() throws IOException {
      out.flush();
    }
  }
}
