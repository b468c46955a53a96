package io.objectcommit.store.impl;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.List;
import javax.net.ssl.SSLException;

/**
 * One failed S3 request, the same whichever SDK sent it: the HTTP status, S3 error code, message and request id
 * of an error answer, or the network problem when there was no answer. Thrown by the {@link S3Calls} bindings
 * (the SDK's exception is the cause) and consumed by the {@link Invoker}, {@link RetryPolicy} and
 * {@link ErrorTranslation}, which therefore behave identically on both SDKs. Callers above the invoker never see
 * it: they get the translated exception (with this as its cause).
 */
public final class RequestFailure extends IOException {

  private static final long serialVersionUID = 1L;

  /** What went wrong when there was no error answer. */
  public enum Network {
    /** The store answered (see {@link #status()}). */
    NONE,
    /** The connection could not be established (refused, no route). */
    REFUSED,
    /** The endpoint's host name is unknown. */
    UNKNOWN_HOST,
    /** The connection broke, or the answer was cut or unreadable. */
    RESET,
    /** No answer in time. */
    TIMEOUT,
    /** The calling thread was interrupted. */
    INTERRUPTED,
    /** No credential provider gave credentials. */
    NO_CREDENTIALS,
    /** Another client-side problem. */
    OTHER
  }

  private final int status;
  private final String errorCode;
  private final String errorMessage;
  private final String requestId;
  private final Network network;
  private final String detail;
  private final boolean retryable;
  private final List<String> refusedKeys;

  private RequestFailure(String message, Throwable cause, int status, String errorCode, String errorMessage,
      String requestId, Network network, String detail, boolean retryable, List<String> refusedKeys) {
    super(message, cause);
    this.status = status;
    this.errorCode = errorCode;
    this.errorMessage = errorMessage;
    this.requestId = requestId;
    this.network = network;
    this.detail = detail;
    this.retryable = retryable;
    this.refusedKeys = refusedKeys == null ? List.of() : List.copyOf(refusedKeys);
  }

  /** An error answer of the store. */
  public static RequestFailure answer(int status, String errorCode, String errorMessage, String requestId,
      Throwable cause) {
    return new RequestFailure(status + " " + errorCode + " (" + errorMessage + ", request id " + requestId + ")",
        cause, status, errorCode, errorMessage, requestId, Network.NONE, null, false, null);
  }

  /** A DeleteObjects answer refusing some keys; {@code refused} are "key (code)" descriptions. */
  public static RequestFailure refusedKeys(List<String> refused, String requestId, Throwable cause) {
    return new RequestFailure("bulk delete refused " + refused.size() + " keys", cause, 200, "MultiObjectDelete",
        "some keys were not deleted", requestId, Network.NONE, null, false, refused);
  }

  /**
   * A failure without an answer, classified from the cause chain of the SDK's exception. An unknown host or a
   * refused connection takes the network exception's own message, not the SDK's (SDK v2 words an unknown host
   * differently from v1), so the error a user sees is the same on either binding; the SDK's exception stays the
   * cause.
   *
   * @param sdkRetryable whether the SDK says the request may be repeated (for problems not classified here)
   */
  public static RequestFailure client(String message, Throwable cause, boolean sdkRetryable) {
    Throwable root = networkCause(cause);
    Network n = classify(root);
    String detail = root == null ? null : root.getMessage();
    boolean named = (n == Network.UNKNOWN_HOST || n == Network.REFUSED) && detail != null;
    return new RequestFailure(named ? detail : message, cause, 0, null, null, null, n, detail, sdkRetryable, null);
  }

  /** A failure of a kind the binding knows (interruption, no credentials, an unreadable body). */
  public static RequestFailure client(String message, Throwable cause, Network network) {
    Throwable root = networkCause(cause);
    return new RequestFailure(message, cause, 0, null, null, null, network,
        root == null ? null : root.getMessage(), network == Network.RESET, null);
  }

  /** The HTTP status of the answer; 0 when there was none. */
  public int status() {
    return status;
  }

  public boolean isStatus(int s) {
    return status == s && network == Network.NONE;
  }

  /** The S3 error code ({@code PreconditionFailed}, {@code NoSuchKey}...), null when none. */
  public String errorCode() {
    return errorCode;
  }

  public String errorMessage() {
    return errorMessage;
  }

  public String requestId() {
    return requestId;
  }

  public Network network() {
    return network;
  }

  /** The message of the network exception at the root (e.g. the unknown host's name), null when none. */
  public String detail() {
    return detail;
  }

  /** For problems not classified by {@link #network()}: whether the SDK says the request may be repeated. */
  public boolean sdkRetryable() {
    return retryable;
  }

  /** Keys a bulk delete refused, as "key (code)"; empty otherwise. */
  public List<String> refusedKeys() {
    return refusedKeys;
  }

  /** The first network-level cause (unknown host, refused, reset, timeout...) from the outside in, or null. */
  private static Throwable networkCause(Throwable e) {
    for (Throwable t = e; t != null && t != t.getCause(); t = t.getCause()) {
      if (classify(t) != Network.OTHER) {
        return t;
      }
    }
    return null;
  }

  private static Network classify(Throwable t) {
    if (t == null) {
      return Network.OTHER;
    }
    if (t instanceof UnknownHostException) {
      return Network.UNKNOWN_HOST;
    }
    if (t instanceof ConnectException || t instanceof NoRouteToHostException) {
      return Network.REFUSED;
    }
    if (t instanceof SocketTimeoutException) {
      return Network.TIMEOUT;
    }
    if (t instanceof InterruptedIOException || t instanceof InterruptedException) {
      return Network.INTERRUPTED;
    }
    String name = t.getClass().getName();
    if (name.endsWith("ConnectionPoolTimeoutException") || name.endsWith("ApiCallAttemptTimeoutException")
        || name.endsWith("ApiCallTimeoutException")) {
      return Network.TIMEOUT;
    }
    if (t instanceof SocketException || t instanceof SSLException || name.endsWith("NoHttpResponseException")
        || name.endsWith("ConnectionClosedException") || name.endsWith("TruncatedChunkException")) {
      return Network.RESET;
    }
    return Network.OTHER;
  }
}
