package io.objectcommit.codecs;

import org.apache.hadoop.fs.PathIOException;

/** An object or file that {@code recompress} cannot turn into the format asked for (not gzip or bzip2, ...). */
public final class RecompressionException extends PathIOException {

  private static final long serialVersionUID = 1L;

  public RecompressionException(String path, String message) {
    super(path, message);
  }
}
