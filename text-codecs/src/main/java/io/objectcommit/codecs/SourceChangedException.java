package io.objectcommit.codecs;

import io.objectcommit.store.ObjectChangedException;

/**
 * {@code recompress --in-place} refused to replace its source: the object changed (or went) between the read and
 * the write, so its conditional write ({@code If-Match} on the ETag read) failed. Nothing was replaced: the object
 * written meanwhile is kept.
 */
public final class SourceChangedException extends ObjectChangedException {

  private static final long serialVersionUID = 1L;

  public SourceChangedException(String path, String expectedEtag, Throwable cause) {
    super(path, "recompress --in-place", expectedEtag, "nothing was replaced (the object written meanwhile is kept)");
    initCause(cause);
  }
}
