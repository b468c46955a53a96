package io.objectcommit.testsupport.proxy;

/** What a listing shows of one object: key, size, ETag (quoted) and last-modified time (ISO 8601). */
final class ListingEntry {

  final String key;
  final long size;
  final String etag;
  final String lastModified;

  ListingEntry(String key, long size, String etag, String lastModified) {
    this.key = key;
    this.size = size;
    this.etag = etag;
    this.lastModified = lastModified;
  }

  @Override
  public String toString() {
    return key + "(" + size + ")";
  }
}
