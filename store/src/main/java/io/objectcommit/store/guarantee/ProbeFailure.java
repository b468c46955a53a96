package io.objectcommit.store.guarantee;

import io.objectcommit.store.impl.RequestFailure;

import io.objectcommit.store.StoreConstants;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.AccessDeniedException;
import org.apache.hadoop.fs.PathIOException;

/**
 * Describes a conditional-write check that could not run: the check is the first request a user's operation
 * sends to a bucket, so its failure is really "the bucket cannot be used". The description names the user's
 * operation, the bucket and endpoint, and why (no bucket, access refused, endpoint unreachable); the check's own
 * failure is the cause. The exception keeps the type callers branch on ({@link FileNotFoundException} for a
 * missing bucket, {@link AccessDeniedException} for 403, {@link PathIOException} for the rest).
 */
final class ProbeFailure {

  private ProbeFailure() {
  }

  /**
   * @param first   the first failure of the check
   * @param trigger the user's operation, e.g. {@code createExclusive s3://b/k}
   * @param where   the bucket and endpoint
   */
  static IOException describe(IOException first, String trigger, String bucket, String where) {
    if (first instanceof InterruptedIOException) {
      return first;
    }
    String root = "s3://" + bucket + "/";
    String msg = trigger + ": checking that " + where + " supports conditional writes ("
        + StoreConstants.CONDITIONAL_WRITES + "=detect) failed: " + reason(first) + ". First failure";
    IOException described;
    if (first instanceof FileNotFoundException) {
      described = new FileNotFoundException(msg + ": " + first.getMessage());
    } else if (first instanceof AccessDeniedException) {
      described = new AccessDeniedException(root, null, msg + ": " + first.getMessage());
    } else {
      // PathIOException's message ends with its cause's own: ": " + first.getMessage(), not repeated here.
      described = new PathIOException(root, msg);
    }
    described.initCause(first);
    for (Throwable cleanup : first.getSuppressed()) {
      described.addSuppressed(cleanup); // the check's cleanup failures, seen where the user looks
    }
    return described;
  }

  private static String reason(IOException e) {
    if (e instanceof FileNotFoundException) {
      return "the bucket does not exist";
    }
    if (e instanceof AccessDeniedException) {
      return "access was refused (403): check the credentials (fs.s3a.access.key, fs.s3a.secret.key,"
          + " fs.s3a.aws.credentials.provider) and the bucket policy";
    }
    RequestFailure.Network network = networkOf(e);
    if (network == RequestFailure.Network.REFUSED) {
      return "the endpoint refused the connection (is it up, and is fs.s3a.endpoint right?)";
    }
    if (network == RequestFailure.Network.UNKNOWN_HOST) {
      return "unknown host (check fs.s3a.endpoint)";
    }
    return "the store answered with an error";
  }

  /**
   * Whether a failed probe PUT may have written the probe object anyway (an ambiguous failure such as a timeout):
   * not when the bucket is missing, access was refused or no connection was made.
   */
  static boolean mayHaveWritten(IOException e) {
    if (e instanceof FileNotFoundException || e instanceof AccessDeniedException) {
      return false;
    }
    RequestFailure.Network network = networkOf(e);
    return network != RequestFailure.Network.REFUSED && network != RequestFailure.Network.UNKNOWN_HOST;
  }

  /** The network problem of the failed request behind {@code e} (classified once, by {@link RequestFailure}). */
  private static RequestFailure.Network networkOf(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof RequestFailure) {
        return ((RequestFailure) t).network();
      }
    }
    return RequestFailure.Network.NONE;
  }
}
