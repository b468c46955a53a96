package io.objectcommit.fs;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
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
    return new FilePayload(file, Files.size(file));
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

  /** A file; parts of it are read with their own streams. */
  public static final class FilePayload extends Payload {
    private final Path file;
    private final long length;

    FilePayload(Path file, long length) {
      this.file = file;
      this.length = length;
    }

    public Path file() {
      return file;
    }

    @Override
    public long length() {
      return length;
    }

    @Override
    public InputStream open() throws IOException {
      return Files.newInputStream(file);
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
}
