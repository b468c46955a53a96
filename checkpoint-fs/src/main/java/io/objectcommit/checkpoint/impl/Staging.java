package io.objectcommit.checkpoint.impl;

import java.io.IOException;

/**
 * Where a file's bytes wait while it is written, before its {@link Publication} makes them visible: a local buffer
 * (S3 backend: memory, then a local file) or a hidden temporary file beside the target (local-path backend). Nothing
 * in it is visible under the file's name. Created by the backend together with the publication; written and
 * handed over by {@link AtomicOutputStream} only. Keep it small.
 *
 * @param <T> the form in which the written bytes are handed to the publication
 */
interface Staging<T> {

  void write(byte[] b, int off, int len) throws IOException;

  /** The bytes, after the last write, in the form the file's publication takes. Called at most once. */
  T written() throws IOException;

  /** Frees what holds the bytes locally (memory, a buffer file, a temporary file). Idempotent. */
  void discard() throws IOException;
}
