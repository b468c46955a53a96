package io.objectcommit.store;

import org.apache.hadoop.fs.PathIOException;

/**
 * A compare-and-swap write ({@code If-Match}) was refused: the object is no longer the version the caller read
 * (another writer replaced it). Nothing was written. Read the object again and decide anew.
 */
public class ObjectChangedException extends PathIOException {

  private static final long serialVersionUID = 1L;

  private final String expectedEtag;

  public ObjectChangedException(String path, String operation, String expectedEtag) {
    super(path, operation + ": the object changed since it was read (expected ETag " + expectedEtag
        + "); nothing was written");
    this.expectedEtag = expectedEtag;
  }

  /** A read pinned to an ETag ({@code If-Match} on a GET) was refused: the object was replaced since. */
  public static ObjectChangedException onRead(String path, String operation, String expectedEtag) {
    return new ObjectChangedException(path, operation + ": the object changed since its identity was taken"
        + " (expected ETag " + expectedEtag + "); nothing of the new object was read", expectedEtag, true);
  }

  private ObjectChangedException(String path, String message, String expectedEtag, boolean read) {
    super(path, message);
    this.expectedEtag = expectedEtag;
  }

  public String expectedEtag() {
    return expectedEtag;
  }
}
