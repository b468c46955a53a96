package io.objectcommit.store.statistics;

import java.util.List;

/**
 * Names of the store statistics: one per kind of S3 request, snake_case. For each operation {@code op} a
 * snapshot has the counters {@code op} (requests that ended), {@code op.failures}, {@code op.retries} (all
 * retries), {@code op.retries_throttled} (after the store asked to slow down: 503 SlowDown, 429),
 * {@code op.retries_transient} (after any other retried failure: 500/502/504, 409 ConditionalRequestConflict,
 * resets, timeouts, refused connects), {@code op.bytes} (bytes sent or received) and {@code op.duration_ms}
 * (total), and the maximum
 * {@code op.max} and mean {@code op.mean} duration in milliseconds, following Hadoop's IOStatistics naming.
 */
public final class StoreStatisticNames {

  private StoreStatisticNames() {
  }

  /** PUT of a whole object, unconditional. */
  public static final String OP_PUT = "op_put";
  /** PUT with {@code If-None-Match: *} or {@code If-Match}. */
  public static final String OP_PUT_CONDITIONAL = "op_put_conditional";
  /** GET, whole or ranged. */
  public static final String OP_GET = "op_get";
  /** HEAD of an object. */
  public static final String OP_HEAD = "op_head";
  /** HEAD of the bucket: sent once per store, after the first HEAD of an object answered 404, to tell a missing
   * object from a missing bucket. */
  public static final String OP_HEAD_BUCKET = "op_head_bucket";
  /** LIST (ListObjectsV2), one page. */
  public static final String OP_LIST = "op_list";
  /** LIST of object versions and delete markers (ListObjectVersions), one page. */
  public static final String OP_LIST_VERSIONS = "op_list_versions";
  /** COPY (CopyObject) of one object to another key of the bucket, done by the store: no bytes through the client. */
  public static final String OP_COPY = "op_copy";
  /** DELETE of one object. */
  public static final String OP_DELETE = "op_delete";
  /** Bulk DELETE (POST ?delete) of up to 1,000 keys. */
  public static final String OP_DELETE_BULK = "op_delete_bulk";
  /** Initiate a multipart upload. */
  public static final String OP_MULTIPART_INITIATE = "op_multipart_initiate";
  /** Upload one part. */
  public static final String OP_MULTIPART_PART = "op_multipart_part";
  /** Complete a multipart upload (conditional or not). */
  public static final String OP_MULTIPART_COMPLETE = "op_multipart_complete";
  /** Abort a multipart upload. */
  public static final String OP_MULTIPART_ABORT = "op_multipart_abort";
  /** List incomplete multipart uploads, one page. */
  public static final String OP_MULTIPART_LIST = "op_multipart_list";

  /** Every operation, in a stable order. */
  public static final List<String> OPERATIONS = List.of(OP_PUT, OP_PUT_CONDITIONAL, OP_GET, OP_HEAD, OP_HEAD_BUCKET, OP_LIST,
      OP_LIST_VERSIONS, OP_COPY, OP_DELETE, OP_DELETE_BULK, OP_MULTIPART_INITIATE, OP_MULTIPART_PART, OP_MULTIPART_COMPLETE,
      OP_MULTIPART_ABORT, OP_MULTIPART_LIST);

  public static final String SUFFIX_FAILURES = ".failures";
  public static final String SUFFIX_RETRIES = ".retries";
  public static final String SUFFIX_RETRIES_THROTTLED = ".retries_throttled";
  public static final String SUFFIX_RETRIES_TRANSIENT = ".retries_transient";
  public static final String SUFFIX_BYTES = ".bytes";
  public static final String SUFFIX_DURATION = ".duration_ms";
  public static final String SUFFIX_MAX = ".max";
  public static final String SUFFIX_MEAN = ".mean";
}
