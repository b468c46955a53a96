package io.objectcommit.direct.impl;

import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.fs.Abortable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An output file on its final key: bytes go to a local buffer file; {@link #close()} uploads it whole (one PUT,
 * or a multipart upload completed at the end, by the store). A stream whose write failed, or that is
 * {@link #abort() aborted}, uploads nothing. {@code close()} is idempotent.
 */
final class DirectOutputStream extends OutputStream implements Abortable {

  private static final Logger LOG = LoggerFactory.getLogger(DirectOutputStream.class);

  private final AttemptWriter writer;
  private final String key;
  private final Path buffer;
  private final OutputStream out;
  private long bytes;
  private boolean closed;
  private boolean failed;

  DirectOutputStream(AttemptWriter writer, String key, Path buffer) throws IOException {
    this.writer = writer;
    this.key = key;
    this.buffer = buffer;
    this.out = new BufferedOutputStream(Files.newOutputStream(buffer), 64 * 1024);
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(writer.store().pathOf(key) + ": stream closed");
    }
  }

  @Override
  public synchronized void write(int b) throws IOException {
    checkOpen();
    try {
      out.write(b);
      bytes++;
    } catch (IOException e) {
      failed = true;
      throw e;
    }
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    checkOpen();
    try {
      out.write(b, off, len);
      bytes += len;
    } catch (IOException e) {
      failed = true;
      throw e;
    }
  }

  @Override
  public synchronized void flush() throws IOException {
    if (!closed) {
      out.flush();
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      out.close();
      if (failed) {
        LOG.warn("{}: a write failed earlier, nothing uploaded", writer.store().pathOf(key));
        return;
      }
      writer.beforeUpload(key);
      writer.store().put(key, Payload.of(buffer), WriteCondition.none());
      writer.uploaded(key, bytes);
    } finally {
      Files.deleteIfExists(buffer);
      writer.streamEnded(this);
    }
  }

  @Override
  public synchronized AbortableResult abort() {
    boolean already = closed;
    IOException problem = null;
    if (!closed) {
      closed = true;
      try {
        out.close();
      } catch (IOException e) {
        problem = e;
      }
      try {
        Files.deleteIfExists(buffer);
      } catch (IOException e) {
        problem = e;
      }
      writer.streamEnded(this);
      LOG.info("{}: output aborted, nothing uploaded", writer.store().pathOf(key));
    }
    IOException cleanup = problem;
    return new AbortableResult() {
      @Override
      public boolean alreadyClosed() {
        return already;
      }

      @Override
      public IOException anyCleanupException() {
        return cleanup;
      }
    };
  }

  @Override
  public String toString() {
    return writer.store().pathOf(key);
  }
}
