package io.objectcommit.store.impl.v2;

import io.objectcommit.store.impl.auth.InstanceCredentialsSource;
import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ContainerCredentialsProvider;
import software.amazon.awssdk.auth.credentials.InstanceProfileCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * The SDK v2 adapter of {@link InstanceCredentialsSource} (S3A 3.4's {@code IAMInstanceCredentialsProvider}):
 * container credentials or the EC2 instance metadata service, fetched by the SDK v2's own providers (which read
 * the container variables from the process environment, as S3A's do); a failure means "nothing to give"
 * ({@link V2NoCredentialsException}), so that the chain goes on. Closing it stops the SDK providers' refresh.
 */
final class V2InstanceCredentialsProvider implements AwsCredentialsProvider, SdkAutoCloseable {

  private final InstanceCredentialsSource source;
  private final AwsCredentialsProvider delegate;

  V2InstanceCredentialsProvider(InstanceCredentialsSource source) {
    this.source = source;
    URI uri = source.containerEndpoint();
    if (source.unusable() != null) {
      this.delegate = null;
    } else if (uri != null) {
      this.delegate = ContainerCredentialsProvider.builder().build();
    } else {
      this.delegate = InstanceProfileCredentialsProvider.builder().build();
    }
  }

  /** The container credentials endpoint in use, or null (instance metadata, or unusable). */
  URI containerEndpoint() {
    return source.containerEndpoint();
  }

  @Override
  public AwsCredentials resolveCredentials() {
    if (source.unusable() != null) {
      throw V2NoCredentialsException.create(source.unusable(), null);
    }
    try {
      return delegate.resolveCredentials();
    } catch (SdkClientException e) {
      throw V2NoCredentialsException.create(source.failure(e), e);
    }
  }

  @Override
  public void close() {
    if (delegate instanceof SdkAutoCloseable) {
      ((SdkAutoCloseable) delegate).close();
    }
  }

  @Override
  public String toString() {
    return source.toString();
  }
}
