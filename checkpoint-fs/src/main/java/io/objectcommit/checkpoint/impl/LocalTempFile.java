package io.objectcommit.checkpoint.impl;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The staging of a file of the local-path backend: a hidden temporary file in the target's directory (so that
 * publishing it is one {@code link(2)} or {@code rename(2)} on the same file system), fsynced before it is handed
 * over when the backend fsyncs. Listings skip it; gc removes it if its writer died.
 */
final class LocalTempFile implements Staging<Path> {

  private final Path file;
  private final FileChannel ch;
  private final OutputStream out;
  private final boolean fsync;

  /** @param ch the file, opened for writing (created new) by the backend */
  LocalTempFile(Path file, FileChannel ch, boolean fsync) {
    this.file = file;
    this.ch = ch;
    this.out = Channels.newOutputStream(ch);
    this.fsync = fsync;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
  }

  /** The temporary file, its bytes on disk (fsynced when the backend fsyncs) and its channel closed. */
  @Override
  public Path written() throws IOException {
    if (fsync) {
      ch.force(true);
    }
    ch.close();
    return file;
  }

  /** Closes and deletes the temporary file (gone already once it was renamed into place). */
  @Override
  public void discard() throws IOException {
    ch.close();
    Files.deleteIfExists(file);
  }
}
