package io.objectcommit.store;

/** A part of a multipart upload, as needed to complete it: number (1-10000), ETag and size. */
public final class UploadedPart {

  private final int partNumber;
  private final String etag;
  private final long size;

  public UploadedPart(int partNumber, String etag, long size) {
    if (partNumber < 1 || partNumber > 10_000) {
      throw new IllegalArgumentException("part number " + partNumber + " outside 1..10000");
    }
    this.partNumber = partNumber;
    this.etag = ObjectInfo.stripQuotes(etag);
    this.size = size;
  }

  public int partNumber() {
    return partNumber;
  }

  public String etag() {
    return etag;
  }

  public long size() {
    return size;
  }

  @Override
  public String toString() {
    return "part " + partNumber + " (" + size + " bytes, etag " + etag + ")";
  }
}
