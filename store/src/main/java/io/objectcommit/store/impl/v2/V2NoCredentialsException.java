package io.objectcommit.store.impl.v2;

import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * A credential provider had nothing to give, on the AWS SDK v2 (the v1 binding's
 * {@link io.objectcommit.store.impl.v1.V1NoCredentialsException}): the chain moves on to the next provider. Thrown by the
 * chain itself when no provider gave credentials, with one message listing every provider asked and what each
 * needed. An SDK client exception, so that the SDK passes it through; never retryable. No secret in the message.
 */
public final class V2NoCredentialsException extends SdkClientException {

  private static final long serialVersionUID = 1L;

  private V2NoCredentialsException(Builder builder) {
    super(builder);
  }

  /** @param cause may be null */
  public static V2NoCredentialsException create(String message, Throwable cause) {
    return new V2NoCredentialsException(SdkClientException.builder().message(message).cause(cause));
  }

  @Override
  public boolean retryable() {
    return false;
  }
}
