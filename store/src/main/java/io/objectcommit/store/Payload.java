package io.objectcommit.store;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The bytes of a write: an array, a file, or a stream. A stream of unknown length is read in parts of the
 * multipart size, so at most one part is held in memory.
 */
public abstract class Payload {

  private Payload() {
  }

  /** Length in bytes, or -1 when unknown (a stream). */
  public abstract long length();

  /** A fresh stream over the bytes; arrays and files can be opened again for a retry, streams cannot. */
  public abstract InputStream open() throws IOException;

  /** True when {@link #open()} can be called again (needed to retry a failed request). */
  public abstract boolean isRepeatable();

  public static Payload of(byte[] data) {
    return new Bytes(data, 0, data.length);
  }

  public static Payload of(byte[] data, int offset, int length) {
    return new Bytes(data, offset, length);
  }

  public static Payload of(Path file) throws IOException {
    return new FilePayload(file, 0, Files.size(file));
  }

  /** Bytes {@code [offset, offset + length)} of a file: one part of a multipart upload of a large file. */
  public static Payload of(Path file, long offset, long length) {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("bad range " + offset + "+" + length + " of " + file);
    }
    return new FilePayload(file, offset, length);
  }

  /**
   * {@code length} bytes read through a new stream from {@code source} at each {@link #open()}: repeatable, like an
   * array, for bytes a caller hands out through a stream of its own.
   */
  public static Payload of(Source source, long length) {
    return new SourcePayload(source, length);
  }

  /** Where a payload of {@link #of(Source, long)} opens its streams. */
  @FunctionalInterface
  public interface Source {
    InputStream open() throws IOException;
  }

  /** A stream; {@code length} -1 if unknown. The store closes it. */
  public static Payload of(InputStream in, long length) {
    return new StreamPayload(in, length);
  }

  /** An array slice. */
  public static final class Bytes extends Payload {
    private final byte[] data;
    private final int offset;
    private final int length;

    Bytes(byte[] data, int offset, int length) {
      Objects.checkFromIndexSize(offset, length, data.length);
      this.data = data;
      this.offset = offset;
      this.length = length;
    }

    @Override
    public long length() {
      return length;
    }

    @Override
    public InputStream open() {
      return new ByteArrayInputStream(data, offset, length);
    }

    @Override
    public boolean isRepeatable() {
      return true;
    }

    /** The array, its offset and length: no copy. */
    public byte[] array() {
      return data;
    }

    public int offset() {
      return offset;
    }
  }

  /** A file or a range of one; parts of it are read with their own streams. */
  public static final class FilePayload extends Payload {
    private final Path file;
    private final long offset;
    private final long length;

    FilePayload(Path file, long offset, long length) {
      this.file = file;
      this.offset = offset;
      this.length = length;
    }

    public Path file() {
      return file;
    }

    /** Where the bytes start in the file (0 for a whole file). */
    public long offset() {
      return offset;
    }

    @Override
    public long length() {
      return length;
    }

    @Override
    public InputStream open() throws IOException {
      if (offset == 0 && length == Files.size(file)) {
        return Files.newInputStream(file);
      }
      FileChannel ch = FileChannel.open(file);
      try {
        ch.position(offset);
      } catch (IOException | RuntimeException e) {
        ch.close();
        throw e;
      }
      return new BoundedInputStream(Channels.newInputStream(ch), length);
    }

    @Override
    public boolean isRepeatable() {
      return true;
    }
  }

  /** Bytes of known length, each {@link #open()} a new stream from the source. */
  private static final class SourcePayload extends Payload {
    private final Source source;
    private final long length;

    SourcePayload(Source source, long length) {
      if (length < 0) {
        throw new IllegalArgumentException("a repeatable source needs its length, not " + length);
      }
      this.source = Objects.requireNonNull(source, "source");
      this.length = length;
    }

    @Override
    public long length() {
      return length;
    }

    @Override
    public InputStream open() throws IOException {
      return source.open();
    }

    @Override
    public boolean isRepeatable() {
      return true;
    }
  }

  /** A one-shot stream. */
  public static final class StreamPayload extends Payload {
    private final InputStream in;
    private final long length;

    StreamPayload(InputStream in, long length) {
      this.in = Objects.requireNonNull(in, "in");
      this.length = length;
    }

    @Override
    public long length() {
      return length;
    }

    @Override
    public InputStream open() {
      return in;
    }

    @Override
    public boolean isRepeatable() {
      return false;
    }
  }

  /** At most {@code limit} bytes of a stream. */
  private static final class BoundedInputStream extends FilterInputStream {
    private long left;

    BoundedInputStream(InputStream in, long limit) {
      super(in);
      this.left = limit;
    }

    @Override
    public int read() throws IOException {
      if (left <= 0) {
        return -1;
      }
      int b = super.read();
      if (b >= 0) {
        left--;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (left <= 0) {
        return -1;
      }
      int n = super.read(b, off, (int) Math.min(len, left));
      if (n > 0) {
        left -= n;
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long s = super.skip(Math.min(n, left));
      left -= s;
      return s;
    }

    @Override
    public int available() throws IOException {
      return (int) Math.min(super.available(), left);
    }

    @Override
    public boolean markSupported() {
      return false;
    }
  }
}
