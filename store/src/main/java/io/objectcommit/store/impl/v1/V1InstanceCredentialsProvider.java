package io.objectcommit.store.impl.v1;

import com.amazonaws.SdkClientException;
import com.amazonaws.auth.AWSCredentials;
import com.amazonaws.auth.AWSCredentialsProvider;
import com.amazonaws.auth.ContainerCredentialsProvider;
import com.amazonaws.auth.InstanceProfileCredentialsProvider;
import com.amazonaws.internal.CredentialsEndpointProvider;
import io.objectcommit.store.impl.auth.InstanceCredentialsSource;
import java.net.URI;
import java.util.Collections;
import java.util.Map;

/**
 * The SDK v1 adapter of {@link InstanceCredentialsSource} (S3A's {@code IAMInstanceCredentialsProvider}):
 * container credentials or the EC2 instance metadata service, fetched by the SDK v1's providers; a failure means
 * "nothing to give" ({@link V1NoCredentialsException}), so that the chain goes on.
 */
final class V1InstanceCredentialsProvider implements AWSCredentialsProvider {

  private final InstanceCredentialsSource source;
  private final AWSCredentialsProvider delegate;

  V1InstanceCredentialsProvider(InstanceCredentialsSource source) {
    this.source = source;
    URI uri = source.containerEndpoint();
    if (source.unusable() != null) {
      this.delegate = null;
    } else if (uri != null) {
      this.delegate = new ContainerCredentialsProvider(new Endpoint(uri, source.authorizationToken()));
    } else {
      this.delegate = InstanceProfileCredentialsProvider.getInstance();
    }
  }

  /** The container credentials endpoint in use, or null (instance metadata, or unusable). */
  URI containerEndpoint() {
    return source.containerEndpoint();
  }

  @Override
  public AWSCredentials getCredentials() {
    if (source.unusable() != null) {
      throw new V1NoCredentialsException(source.unusable());
    }
    try {
      return delegate.getCredentials();
    } catch (SdkClientException e) {
      throw new V1NoCredentialsException(source.failure(e), e);
    }
  }

  @Override
  public void refresh() {
    if (delegate != null) {
      delegate.refresh();
    }
  }

  @Override
  public String toString() {
    return source.toString();
  }

  /** The SDK's endpoint of container credentials, from our environment seam. */
  private static final class Endpoint extends CredentialsEndpointProvider {
    private final URI uri;
    private final String token;

    Endpoint(URI uri, String token) {
      this.uri = uri;
      this.token = token;
    }

    @Override
    public URI getCredentialsEndpoint() {
      return uri;
    }

    @Override
    public Map<String, String> getHeaders() {
      return token == null ? Collections.emptyMap() : Collections.singletonMap("Authorization", token);
    }
  }
}
