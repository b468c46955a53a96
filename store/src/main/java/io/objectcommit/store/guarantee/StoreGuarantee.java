package io.objectcommit.store.guarantee;

import io.objectcommit.store.ObjectStore;

/**
 * One guarantee of the object store that objectcommit's components rely on, verified by the conditional-write
 * check ({@code fs.objectcommit.conditional-writes=detect}). Each component asks only for the guarantees it uses
 * ({@link ObjectStore#requireGuarantees}); see docs/stores.md for which stores give which.
 */
public enum StoreGuarantee {

  /** {@code If-None-Match: *} on PUT: refused (412) when an object exists at the key, which stays unchanged. */
  IF_NONE_MATCH_PUT("If-None-Match: * on PutObject is refused on an existing key"),
  /** {@code If-None-Match: *} on CompleteMultipartUpload: refused when an object exists, which stays unchanged. */
  IF_NONE_MATCH_COMPLETE("If-None-Match: * on CompleteMultipartUpload is refused on an existing key"),
  /** {@code If-Match: <etag>} on PUT: refused when the ETag is stale or the key missing; the object unchanged. */
  IF_MATCH_PUT("If-Match on PutObject is refused for a stale ETag and for a missing key"),
  /** {@code If-Match: <etag>} on CompleteMultipartUpload: refused when stale or missing; the object unchanged. */
  IF_MATCH_COMPLETE("If-Match on CompleteMultipartUpload is refused for a stale ETag and for a missing key"),
  /** Racing exclusive creates of one key: exactly one succeeds. */
  ATOMIC_EXCLUSIVE_CREATE("racing exclusive creates (If-None-Match: *) of one key give exactly one winner"),
  /** Racing {@code If-Match} writes from one ETag: exactly one succeeds. */
  ATOMIC_COMPARE_AND_SWAP("racing If-Match writes from one ETag give exactly one winner"),
  /** AbortMultipartUpload of an upload to an existing key leaves that object as it was. */
  ABORT_KEEPS_EXISTING("aborting a multipart upload to an existing key leaves that object in place");

  private final String description;

  StoreGuarantee(String description) {
    this.description = description;
  }

  /** What the guarantee says, in one line. */
  public String description() {
    return description;
  }
}
