package io.objectcommit.checkpoint.impl;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The output stream of both backends: its bytes go to a {@link Staging} and become visible under the file's path
 * only when {@link #close()} hands them to the file's {@link Publication}, whole and at once. The stream knows
 * these two and nothing else: the backend built both, with everything publishing needs, when it created the
 * stream. {@link #cancel()}, a failed write or a failed publication leaves nothing visible. {@code close()} is
 * idempotent.
 *
 * @param <T> the form in which the staging hands the bytes to the publication
 */
final class AtomicOutputStream<T> extends OutputStream implements Backend.Cancellable {

  private static final Logger LOG = LoggerFactory.getLogger(AtomicOutputStream.class);

  private final Path path;
  private final Staging<T> staging;
  private final Publication<T> publication;
  private boolean closed;
  private IOException failedWrite;

  AtomicOutputStream(Path path, Staging<T> staging, Publication<T> publication) {
    this.path = path;
    this.staging = staging;
    this.publication = publication;
  }

  /** A new file's stream as the backends return it. */
  static <T> FSDataOutputStream open(Path path, Staging<T> staging, Publication<T> publication) {
    return new FSDataOutputStream(new AtomicOutputStream<>(path, staging, publication), null);
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new PathIOException(path.toString(), "write after the stream was closed or cancelled");
    }
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    checkOpen();
    try {
      staging.write(b, off, len);
    } catch (IOException | RuntimeException e) {
      failedWrite = e instanceof IOException ? (IOException) e : new IOException(e);
      throw e;
    }
  }

  /**
   * Publishes the file, then frees the staging. A write that failed earlier means the bytes are incomplete: nothing
   * is published and the close fails, naming the path.
   */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (failedWrite != null) {
        PathIOException e = new PathIOException(path.toString(), "not published: a write failed earlier");
        e.initCause(failedWrite);
        throw e;
      }
      publication.publish(staging.written());
    } catch (IOException | RuntimeException e) {
      try {
        staging.discard();
      } catch (IOException | RuntimeException discardFailure) {
        e.addSuppressed(discardFailure);
      }
      throw e;
    }
    try {
      staging.discard();
    } catch (IOException e) {
      // The file is published: failing the close now would tell the caller it is not.
      LOG.warn("{} is published, but its local staging could not be freed: {}", path, e.toString());
      LOG.debug("staging discard failure", e);
    }
  }

  @Override
  public synchronized void cancel() throws IOException {
    if (!closed) {
      closed = true;
      staging.discard();
      LOG.debug("{}: cancelled, nothing published", path);
    }
  }

  @Override
  public String toString() {
    return "AtomicOutputStream{" + path + (closed ? ", closed" : "") + "}";
  }
}
