package io.objectcommit.store.impl;

import static io.objectcommit.store.statistics.StoreStatisticNames.OP_DELETE;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_DELETE_BULK;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_GET;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_HEAD;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_HEAD_BUCKET;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_LIST;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_LIST_VERSIONS;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_MULTIPART_ABORT;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_MULTIPART_COMPLETE;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_MULTIPART_INITIATE;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_MULTIPART_LIST;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_MULTIPART_PART;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_PUT;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_PUT_CONDITIONAL;

import io.objectcommit.store.ActionDeniedException;
import java.util.Map;

/**
 * The IAM action each store operation needs (the S3 API reference's "Permissions" of each request), for the
 * message of a refused request: {@code s3:PutObject on lake/team-a/x}, not "check the credentials".
 */
final class IamActions {

  /** Operations whose action is on the bucket (their path's key, if any, is a listing's prefix). */
  private static final Map<String, String> ON_BUCKET = Map.of(
      OP_LIST, "s3:ListBucket",
      OP_HEAD_BUCKET, "s3:ListBucket",
      OP_LIST_VERSIONS, "s3:ListBucketVersions",
      OP_MULTIPART_LIST, "s3:ListBucketMultipartUploads");

  private static final Map<String, String> ON_OBJECT = Map.of(
      OP_PUT, "s3:PutObject",
      OP_PUT_CONDITIONAL, "s3:PutObject",
      OP_MULTIPART_INITIATE, "s3:PutObject",
      OP_MULTIPART_PART, "s3:PutObject",
      OP_MULTIPART_COMPLETE, "s3:PutObject",
      OP_GET, "s3:GetObject",
      OP_HEAD, "s3:GetObject",
      OP_DELETE, "s3:DeleteObject",
      OP_DELETE_BULK, "s3:DeleteObject",
      OP_MULTIPART_ABORT, "s3:AbortMultipartUpload");

  private IamActions() {
  }

  /**
   * The exception of a request refused with 403 for want of a permission, or null for an operation whose action is
   * not known here (the caller then reports a plain {@link java.nio.file.AccessDeniedException}).
   *
   * @param op      the operation ({@code op_put_conditional})
   * @param path    {@code s3://bucket/key} of the request
   * @param summary the request's failure (operation, status, error code, request id, store)
   * @param code    the S3 error code, or null (a HEAD's answer has no body, so none)
   */
  static ActionDeniedException denied(String op, String path, String summary, String code) {
    boolean onBucket = ON_BUCKET.containsKey(op);
    String action = onBucket ? ON_BUCKET.get(op) : ON_OBJECT.get(op);
    if (action == null || !path.startsWith("s3://")) {
      return null;
    }
    String rest = path.substring("s3://".length());
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    String key = slash < 0 || slash == rest.length() - 1 ? null : rest.substring(slash + 1);
    String refused = ActionDeniedException.refused(action, bucket, onBucket ? null : key);
    String listing = onBucket && key != null ? " (listing prefix " + key + ")" : "";
    String missing = OP_GET.equals(op) || OP_HEAD.equals(op)
        ? " (or, if the object does not exist, s3:ListBucket on the bucket: without it S3 answers 403 instead of 404)"
        : "";
    String arn = "arn:aws:s3:::" + bucket + (onBucket ? "" : "/" + (key == null ? "*" : key));
    boolean known = code != null && !code.contains(" ");
    return new ActionDeniedException(path, bucket, key, action, onBucket, refused + listing
        + " was refused: " + summary + ". " + (known ? "The credentials were accepted but may not "
            : "The answer carries no error code; if the credentials are right, they may not ") + action + " on "
        + arn + missing + ": grant it to the user or role (IAM policy, bucket policy), or write where they may"
        + " (docs/stores.md, 'IAM permissions')");
  }
}
