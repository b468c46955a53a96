package io.objectcommit.fs;

import org.apache.hadoop.fs.PathIOException;

/**
 * The store ignores or rejects conditional writes ({@code If-None-Match} / {@code If-Match}), on which
 * objectcommit's safety depends. Raised once per bucket, before anything unsafe is done. The message names the
 * store and the setting for the documented weaker mode.
 */
public class ConditionalWritesUnsupportedException extends PathIOException {

  private static final long serialVersionUID = 1L;

  public ConditionalWritesUnsupportedException(String path, String detail) {
    super(path, detail);
  }
}
