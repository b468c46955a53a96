package io.objectcommit.store;

import java.nio.file.AccessDeniedException;

/**
 * The store refused an action on a key or on the bucket (HTTP 403, {@code AccessDenied}): the credentials were
 * accepted, a permission is missing. Names the IAM action and the resource ({@code s3:PutObject on
 * lake/team-a/q1/offsets/0}), which {@link #action()}, {@link #bucket()} and {@link #key()} carry for programs, so
 * that the user can tell what to grant (or where to write instead) rather than to check the credentials. A refusal
 * of the credentials themselves (unknown key, bad signature, expired token) is a plain {@link AccessDeniedException}.
 */
public class ActionDeniedException extends AccessDeniedException {

  private static final long serialVersionUID = 1L;

  private final String bucket;
  private final String key;
  private final String action;
  private final boolean onBucket;

  /**
   * An action refused on an object.
   *
   * @param path   {@code s3://bucket/key}, the file of the exception
   * @param bucket the bucket
   * @param key    the object's key
   * @param action the IAM action refused, such as {@code s3:PutObject}
   * @param reason the whole description
   */
  public ActionDeniedException(String path, String bucket, String key, String action, String reason) {
    this(path, bucket, key, action, false, reason);
  }

  /**
   * @param key      the object's key; for an action on the bucket, the listing's prefix or null
   * @param onBucket whether the action is on the bucket ({@code s3:ListBucket}), not on the key
   */
  public ActionDeniedException(String path, String bucket, String key, String action, boolean onBucket,
      String reason) {
    super(path, null, reason);
    this.bucket = bucket;
    this.key = key;
    this.action = action;
    this.onBucket = onBucket;
  }

  /** The bucket. */
  public String bucket() {
    return bucket;
  }

  /** The key the action was refused on; for an action on the bucket, a listing's prefix or null. */
  public String key() {
    return key;
  }

  /** Whether the action is on the bucket ({@code s3:ListBucket}, {@code s3:ListBucketMultipartUploads}). */
  public boolean onBucket() {
    return onBucket;
  }

  /** The IAM action refused, such as {@code s3:PutObject}. */
  public String action() {
    return action;
  }

  /** {@code s3:PutObject on bucket/key} ({@code on bucket} for an action on the bucket): what was refused. */
  public String refused() {
    return refused(action, bucket, onBucket ? null : key);
  }

  /** {@link #refused()} of the arguments. */
  public static String refused(String action, String bucket, String key) {
    return action + " on " + bucket + (key == null ? "" : "/" + key);
  }
}
