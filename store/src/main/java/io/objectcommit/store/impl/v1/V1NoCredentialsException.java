package io.objectcommit.store.impl.v1;

import com.amazonaws.SdkClientException;

/**
 * A credential provider had nothing to give (S3A's {@code NoAwsCredentialsException}): the chain moves on to the
 * next provider. Thrown by the chain itself when no provider gave credentials. Never retried: asking again gives
 * the same answer. The message says what was needed, never a secret.
 */
public class V1NoCredentialsException extends SdkClientException {

  private static final long serialVersionUID = 1L;

  /** @param message what the provider needs that is missing, e.g. {@code fs.s3a.access.key ... are not set} */
  public V1NoCredentialsException(String message) {
    super(message);
  }

  public V1NoCredentialsException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public boolean isRetryable() {
    return false;
  }
}
