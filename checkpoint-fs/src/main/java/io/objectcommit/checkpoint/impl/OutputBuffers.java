package io.objectcommit.checkpoint.impl;

import io.objectcommit.store.Payload;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Buffers for files being written: memory up to a limit, then a local file. */
public final class OutputBuffers {

  private final long memoryLimit;
  private final Path dir;

  public OutputBuffers(long memoryLimit, Path dir) {
    this.memoryLimit = memoryLimit;
    this.dir = dir;
  }

  public Buffer newBuffer() {
    return new Buffer();
  }

  /** One file's bytes while it is written. */
  public final class Buffer extends OutputStream implements Staging<Payload> {
    private ByteArrayOutputStream memory = new ByteArrayOutputStream();
    private Path file;
    private OutputStream fileOut;
    private long size;

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (memory != null && size + len > memoryLimit) {
        spill();
      }
      if (memory != null) {
        memory.write(b, off, len);
      } else {
        fileOut.write(b, off, len);
      }
      size += len;
    }

    private void spill() throws IOException {
      Files.createDirectories(dir);
      file = Files.createTempFile(dir, "ckpt-", ".buf");
      fileOut = Files.newOutputStream(file);
      memory.writeTo(fileOut);
      memory = null;
    }

    public long size() {
      return size;
    }

    /** The bytes written, after the last write. */
    @Override
    public Payload written() throws IOException {
      if (memory != null) {
        return Payload.of(memory.toByteArray());
      }
      fileOut.close();
      return Payload.of(file);
    }

    /** Frees the buffer; idempotent. */
    @Override
    public void discard() throws IOException {
      memory = null;
      if (fileOut != null) {
        fileOut.close();
      }
      if (file != null) {
        Files.deleteIfExists(file);
      }
    }
  }
}
