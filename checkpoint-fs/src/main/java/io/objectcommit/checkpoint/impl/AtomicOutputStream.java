package io.objectcommit.checkpoint.impl;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import org.apache.hadoop.fs.Abortable;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIOException;
import org.apache.hadoop.fs.StreamCapabilities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The output stream of both backends: its bytes go to a {@link Staging} and become visible under the file's path
 * only when {@link #close()} hands them to the file's {@link Publication}, whole and at once. The stream knows
 * these two and nothing else: the backend built both, with everything publishing needs, when it created the
 * stream. {@link #abort()}, a failed write or a failed publication leaves nothing visible. {@code close()} is
 * idempotent.
 *
 * <p>Hadoop's {@link Abortable} (3.3.1+) is the one way to abandon a stream: {@code FSDataOutputStream.abort()}
 * passes it on to this stream, and {@link #hasCapability} answers {@link StreamCapabilities#ABORTABLE_STREAM}, which
 * is what callers probe first (Spark's {@code AbortableStreamBasedCheckpointFileManager}, {@link CheckpointFiles}).
 * hflush and hsync are not supported: the file appears only when the stream is closed.
 *
 * @param <T> the form in which the staging hands the bytes to the publication
 */
final class AtomicOutputStream<T> extends OutputStream implements Abortable, StreamCapabilities {

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
      throw new PathIOException(path.toString(), "write after the stream was closed or aborted");
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
        publication.abandon();
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

  /**
   * Abandons the file: nothing is published, now or at a later {@code close()} (which does nothing). The staging is
   * freed; if that fails, the failure is in the result (and logged): nothing is visible all the same.
   */
  @Override
  public synchronized AbortableResult abort() {
    if (closed) {
      return new Result(true, null);
    }
    closed = true;
    publication.abandon();
    IOException cleanup = null;
    try {
      staging.discard();
    } catch (IOException e) {
      cleanup = e;
      LOG.warn("{}: aborted, nothing published; its local staging could not be freed: {}", path, e.toString());
      LOG.debug("staging discard failure", e);
    }
    LOG.debug("{}: aborted, nothing published", path);
    return new Result(false, cleanup);
  }

  @Override
  public boolean hasCapability(String capability) {
    return StreamCapabilities.ABORTABLE_STREAM.equals(capability.toLowerCase(Locale.ENGLISH));
  }

  /** What {@link #abort()} found and left. */
  private static final class Result implements AbortableResult {
    private final boolean alreadyClosed;
    private final IOException cleanup;

    Result(boolean alreadyClosed, IOException cleanup) {
      this.alreadyClosed = alreadyClosed;
      this.cleanup = cleanup;
    }

    @Override
    public boolean alreadyClosed() {
      return alreadyClosed;
    }

    @Override
    public IOException anyCleanupException() {
      return cleanup;
    }
  }

  @Override
  public String toString() {
    return "AtomicOutputStream{" + path + (closed ? ", closed" : "") + "}";
  }
}
