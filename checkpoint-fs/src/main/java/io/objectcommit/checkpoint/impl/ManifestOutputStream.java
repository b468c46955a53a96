package io.objectcommit.checkpoint.impl;

import io.objectcommit.store.WriteCondition;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.fs.Path;

/**
 * A file being written to the S3 backend. Bytes are buffered locally; {@link #close()} uploads them as one new,
 * immutable data object (one PUT, or a multipart upload for large files) and then publishes the file with one
 * conditional write of the parent directory's manifest. Nothing is visible before that write; {@link #cancel()}
 * or a failure leaves nothing visible (an uploaded but unpublished data object is deleted, or collected by gc).
 */
final class ManifestOutputStream extends OutputStream implements Backend.Cancellable {

  private final ManifestBackend backend;
  private final Path path;
  private final String parentId;
  private final String parentPath;
  private final String name;
  private final String dataKey;
  private final boolean overwrite;
  private final OutputBuffers.Buffer buffer;
  private boolean closed;

  ManifestOutputStream(ManifestBackend backend, Path path, String parentId, String parentPath, String name,
      String dataKey, boolean overwrite, OutputBuffers.Buffer buffer) {
    this.backend = backend;
    this.path = path;
    this.parentId = parentId;
    this.parentPath = parentPath;
    this.name = name;
    this.dataKey = dataKey;
    this.overwrite = overwrite;
    this.buffer = buffer;
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(path + ": stream is closed");
    }
  }

  @Override
  public void write(int b) throws IOException {
    checkOpen();
    buffer.write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    checkOpen();
    buffer.write(b, off, len);
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      long size = buffer.size();
      // The key is new and unique (a random suffix): an unconditional PUT cannot clobber anything.
      backend.store().put(dataKey, buffer.payload(), WriteCondition.none());
      backend.publish(path, parentId, parentPath, name, dataKey, size, overwrite);
    } finally {
      buffer.discard();
    }
  }

  @Override
  public synchronized void cancel() throws IOException {
    if (!closed) {
      closed = true;
      buffer.discard();
    }
  }
}
