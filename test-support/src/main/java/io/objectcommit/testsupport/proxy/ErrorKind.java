package io.objectcommit.testsupport.proxy;

/** What an injected error looks like to the client. */
public enum ErrorKind {
  /** HTTP 503 with S3's {@code SlowDown} error body: clients treat it as throttling and retry. */
  SLOW_DOWN(503, "SlowDown", "Please reduce your request rate."),
  /** HTTP 500 with S3's {@code InternalError} error body. */
  INTERNAL_ERROR(500, "InternalError", "We encountered an internal error. Please try again."),
  /**
   * HTTP 403 with S3's {@code AccessDenied} error body: what AWS answers a request that the credentials' policy does
   * not allow (a permission missing on that key, not refused credentials); clients do not retry it.
   */
  ACCESS_DENIED(403, "AccessDenied", "Access Denied"),
  /** The connection is reset (TCP RST: linger 0, then close) instead of any response. */
  RESET(0, null, null);

  private final int status;
  private final String code;
  private final String message;

  ErrorKind(int status, String code, String message) {
    this.status = status;
    this.code = code;
    this.message = message;
  }

  /** The HTTP status sent, or 0 for {@link #RESET} (also the status under which a reset is counted). */
  public int status() {
    return status;
  }

  /** S3's error code, or null for {@link #RESET}. */
  public String code() {
    return code;
  }

  String message() {
    return message;
  }
}
