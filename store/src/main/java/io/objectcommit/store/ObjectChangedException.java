package io.objectcommit.store;

import org.apache.hadoop.fs.PathIOException;

/**
 * A request conditional on an object's ETag ({@code If-Match}) was refused: the object is no longer the version the
 * caller read (another writer replaced it). For a compare-and-swap write nothing was written, for a conditional delete
 * nothing was deleted, for a pinned read nothing of the new object was read. Read the object again and decide anew.
 */
public class ObjectChangedException extends PathIOException {

  private static final long serialVersionUID = 1L;

  private final String expectedEtag;

  /** A refused compare-and-swap write. */
  public ObjectChangedException(String path, String operation, String expectedEtag) {
    this(path, operation, expectedEtag, "nothing was written");
  }

  /**
   * @param outcome what the refusal left, for the message (for a conditional delete: nothing was deleted)
   */
  public ObjectChangedException(String path, String operation, String expectedEtag, String outcome) {
    super(path, operation + ": the object changed since it was read (expected ETag " + expectedEtag + "); "
        + outcome);
    this.expectedEtag = expectedEtag;
  }

  /** A read pinned to an ETag ({@code If-Match} on a GET) was refused: the object was replaced since. */
  public static ObjectChangedException onRead(String path, String operation, String expectedEtag) {
    return new ObjectChangedException(path, operation, expectedEtag, "nothing of the new object was read");
  }

  public String expectedEtag() {
    return expectedEtag;
  }
}
