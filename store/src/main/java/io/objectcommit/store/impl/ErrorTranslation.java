package io.objectcommit.store.impl;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.AccessDeniedException;
import org.apache.hadoop.fs.PathIOException;

/**
 * Turns a failed request ({@link RequestFailure}, the same from either SDK binding) into the one {@link IOException} the caller sees, naming the path, the operation, the
 * bucket's endpoint and, for the errors users can fix, what to check: a 403 for want of a permission is an
 * {@link io.objectcommit.store.ActionDeniedException} naming the IAM action and the key ({@link IamActions}), a 403
 * of the credentials themselves a plain {@link AccessDeniedException}. Never includes credentials: the SDK's
 * messages carry status, error code and request id only.
 */
final class ErrorTranslation {

  private final String where;

  /** @param where the bucket and endpoint, e.g. {@code bucket 'b' at endpoint http://127.0.0.1:4566} */
  ErrorTranslation(String where) {
    this.where = where;
  }

  String where() {
    return where;
  }

  /** The exception for a request that failed for good after {@code attempts + 1} attempts. */
  IOException translate(String op, String path, RequestFailure e, int attempts) {
    String tries = attempts > 0 ? " (after " + (attempts + 1) + " attempts)" : "";
    IOException result;
    if (e.network() == RequestFailure.Network.NONE) {
      String code = e.errorCode();
      String summary = op + " failed" + tries + ": " + e.status() + " " + code + " ("
          + e.errorMessage() + ", request id " + e.requestId() + ") on " + where;
      switch (e.status()) {
        case 404:
          if ("NoSuchBucket".equals(code)) {
            result = new FileNotFoundException(path + ": " + op + ": no such bucket: " + where);
          } else if ("NoSuchUpload".equals(code)) {
            result = new FileNotFoundException(path + ": " + op + ": no such multipart upload (completed or aborted"
                + " already?) on " + where);
          } else {
            result = new FileNotFoundException(path + ": " + op + ": no such object on " + where);
          }
          break;
        case 403:
          result = credentialsRefused(code) ? null : IamActions.denied(op, path, summary, code);
          if (result == null) {
            result = new AccessDeniedException(path, null, summary + accessHint(code));
          }
          break;
        case 301:
        case 307:
          result = new PathIOException(path, summary + ": the bucket is in another region; set "
              + "fs.s3a.endpoint.region (or fs.s3a.bucket.<bucket>.endpoint.region) to its region");
          break;
        default:
          result = new PathIOException(path, summary);
      }
    } else if (e.network() == RequestFailure.Network.NO_CREDENTIALS) {
      // As S3A: no credentials is an access problem; the message lists the providers asked (never a secret).
      result = new AccessDeniedException(path, null, op + " failed: " + e.getMessage() + " on " + where);
    } else if (e.network() == RequestFailure.Network.INTERRUPTED) {
      result = new InterruptedIOException(path + ": " + op + " interrupted");
    } else {
      result = new PathIOException(path, op + " failed" + tries + ": " + clientProblem(e) + " on " + where);
    }
    result.initCause(e);
    return result;
  }

  /** A 403 about the credentials themselves (unknown, badly signed, expired), not about a permission. */
  private static boolean credentialsRefused(String code) {
    return "InvalidAccessKeyId".equals(code) || "SignatureDoesNotMatch".equals(code)
        || "InvalidToken".equals(code) || "ExpiredToken".equals(code) || "TokenRefreshRequired".equals(code)
        || "RequestTimeTooSkewed".equals(code);
  }

  private static String accessHint(String code) {
    if ("RequestTimeTooSkewed".equals(code)) {
      return ": the clock of this machine differs from the store's by too much; correct it (NTP)";
    }
    if (credentialsRefused(code)) {
      return ": the credentials were refused; check fs.s3a.access.key / fs.s3a.secret.key / fs.s3a.session.token"
          + " or fs.s3a.aws.credentials.provider";
    }
    return ": access denied; check the bucket policy and the IAM permissions of the credentials in use";
  }

  private static String clientProblem(RequestFailure e) {
    switch (e.network()) {
      case UNKNOWN_HOST:
        return "unknown host " + e.detail() + " (check fs.s3a.endpoint)";
      case REFUSED:
        return "cannot connect (" + e.detail() + "; is the endpoint up, and is fs.s3a.endpoint right?)";
      default:
        return e.getMessage();
    }
  }
}
