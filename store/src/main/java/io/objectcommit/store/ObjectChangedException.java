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

  /**
   * @param outcome what the refusal left, for the message (for a conditional delete: nothing was deleted)
   */
  public ObjectChangedException(String path, String operation, String expectedEtag, String outcome) {
    super(path, operation + ": the object changed since it was read (expected ETag " + expectedEtag + "); "
        + outcome);
    this.expectedEtag = expectedEtag;
  }

  public String expectedEtag() {
    return expectedEtag;
  }
}
