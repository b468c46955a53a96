package io.objectcommit.checkpoint.impl;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Path;

/**
 * The stream of one file of the local-path backend: a hidden temporary file in the target's directory, fsynced and
 * published atomically on close (by {@code link(2)} when it must not overwrite, {@code rename(2)} when it may);
 * cancelling leaves nothing.
 */
final class LocalAtomicOutputStream extends OutputStream implements Backend.Cancellable {
  private final Path path;
  private final java.nio.file.Path target;
  private final java.nio.file.Path tmp;
  private final FileChannel ch;
  private final OutputStream out;
  private final boolean overwrite;
  private final boolean fsync;
  private boolean closed;

  LocalAtomicOutputStream(Path path, java.nio.file.Path target, java.nio.file.Path tmp, FileChannel ch,
      boolean overwrite, boolean fsync) {
    this.path = path;
    this.target = target;
    this.tmp = tmp;
    this.ch = ch;
    this.out = java.nio.channels.Channels.newOutputStream(ch);
    this.overwrite = overwrite;
    this.fsync = fsync;
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (fsync) {
        ch.force(true);
      }
      ch.close();
      if (overwrite) {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } else {
        try {
          Files.createLink(target, tmp);
        } catch (java.nio.file.FileAlreadyExistsException e) {
          FileAlreadyExistsException fe = new FileAlreadyExistsException(path + " already exists");
          fe.initCause(e);
          throw fe;
        }
        Files.delete(tmp);
      }
      if (fsync) {
        LocalPathBackend.syncDirectory(target.getParent());
      }
    } finally {
      ch.close();
      Files.deleteIfExists(tmp);
    }
  }

  @Override
  public synchronized void cancel() throws IOException {
    if (!closed) {
      closed = true;
      ch.close();
      Files.deleteIfExists(tmp);
    }
  }
}
