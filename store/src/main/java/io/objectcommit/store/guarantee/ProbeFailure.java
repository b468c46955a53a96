package io.objectcommit.store.guarantee;

import io.objectcommit.store.ActionDeniedException;
import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.impl.RequestFailure;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.AccessDeniedException;
import org.apache.hadoop.fs.PathIOException;

/**
 * Describes a conditional-write check that could not run: the check is the first request a user's operation
 * sends to a bucket, so its failure is really "the bucket cannot be used". The description names the user's
 * operation, the bucket and endpoint, and why (no bucket, an action refused, credentials refused, endpoint
 * unreachable); the check's own failure is the cause. The exception keeps the type callers branch on
 * ({@link FileNotFoundException} for a missing bucket, {@link ActionDeniedException} for an action refused on the
 * check's key, naming the action, the key and where the check writes, {@link AccessDeniedException} for refused
 * credentials, {@link PathIOException} for the rest).
 */
final class ProbeFailure {

  private ProbeFailure() {
  }

  /**
   * @param first       the first failure of the check
   * @param trigger     the user's operation, e.g. {@code createExclusive s3://b/k}
   * @param who         the component that relies on the guarantees
   * @param where       the bucket and endpoint
   * @param probePrefix where the check wrote
   * @param mode        the policy's mode, as configured ({@code detect}, {@code check}); null for a check run on
   *                    demand ({@link StoreCheck}), whatever the mode
   */
  static IOException describe(IOException first, String trigger, String who, String bucket, String where,
      String probePrefix, String mode) {
    if (first instanceof InterruptedIOException) {
      return first;
    }
    String root = "s3://" + bucket + "/";
    String setting = mode == null ? "" : " (" + StoreConstants.CONDITIONAL_WRITES + "=" + mode + ")";
    String msg = trigger + ": checking that " + where + " supports conditional writes" + setting + " failed: "
        + reason(first) + ". First failure";
    IOException described;
    ActionDeniedException denied = deniedAction(first);
    if (denied != null) {
      // a permission is missing, not the credentials: name what was refused, where, and why the check was there
      described = new ActionDeniedException(denied.getFile(), denied.bucket(), denied.key(), denied.action(),
          denied.onBucket(), trigger
          + ": checking that " + where + " supports conditional writes" + setting + " failed: "
          + denied.refused() + " was refused. The check writes (and deletes) its objects under s3://"
          + bucket + "/" + probePrefix + ", where " + who + " is about to write; the credentials need s3:PutObject,"
          + " s3:GetObject, s3:DeleteObject and s3:AbortMultipartUpload there (docs/stores.md, 'IAM permissions')."
          + " Grant them, write where they are granted, or set " + StoreConstants.PROBE_PREFIX + " to a prefix"
          + " where they are. First failure: " + first.getMessage());
    } else if (first instanceof FileNotFoundException) {
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

  /** The refused action behind {@code e}: itself, or its cause (a failure the check's own code wrapped). */
  private static ActionDeniedException deniedAction(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ActionDeniedException) {
        return (ActionDeniedException) t;
      }
    }
    return null;
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
