package io.objectcommit.testsupport;

/** A {@link PlainS3} request that failed: the operation, the bucket and key, the HTTP status and S3 error code. */
public final class PlainS3Exception extends RuntimeException {

  private final String operation;
  private final String bucket;
  private final String key;
  private final int status;
  private final String errorCode;

  PlainS3Exception(String operation, String bucket, String key, int status, String errorCode, Throwable cause) {
    super(operation + " s3://" + bucket + "/" + key + " failed: "
        + (status < 0 ? "no answer" : "HTTP " + status + (errorCode == null ? "" : " " + errorCode)), cause);
    this.operation = operation;
    this.bucket = bucket;
    this.key = key;
    this.status = status;
    this.errorCode = errorCode;
  }

  public String operation() {
    return operation;
  }

  public String bucket() {
    return bucket;
  }

  public String key() {
    return key;
  }

  /** The HTTP status, or -1 when no answer came (connection failure, interrupt). */
  public int status() {
    return status;
  }

  /** The S3 error code ({@code NoSuchKey}, ...) or null. */
  public String errorCode() {
    return errorCode;
  }
}
