package io.objectcommit.store.guarantee;

import io.objectcommit.store.ObjectStore;
import java.util.EnumSet;
import java.util.Set;

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
  ABORT_KEEPS_EXISTING("aborting a multipart upload to an existing key leaves that object in place"),
  /**
   * {@code If-Match: <etag>} on DeleteObject: refused (412) for a stale ETag, the object kept; the current ETag
   * deletes. Asked about, never required ({@link ObjectStore#conditionalDeletes}): a store without it is used with
   * unconditional deletes, as before conditional deletes existed.
   */
  IF_MATCH_DELETE("If-Match on DeleteObject is refused for a stale ETag (the object kept) and deletes for the"
      + " current one");

  /**
   * The guarantees of conditional writes, which components require ({@link ObjectStore#requireGuarantees}) and the
   * store check ({@code objectcommit store check}) checks: every one but {@link #IF_MATCH_DELETE}, which a
   * component only asks about.
   */
  public static Set<StoreGuarantee> ofWrites() {
    return EnumSet.complementOf(EnumSet.of(IF_MATCH_DELETE));
  }

  private final String description;

  StoreGuarantee(String description) {
    this.description = description;
  }

  /** What the guarantee says, in one line. */
  public String description() {
    return description;
  }
}
