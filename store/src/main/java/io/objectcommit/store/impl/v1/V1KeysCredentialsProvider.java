package io.objectcommit.store.impl.v1;

import com.amazonaws.auth.AWSCredentials;
import com.amazonaws.auth.AWSCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.auth.BasicSessionCredentials;
import io.objectcommit.store.impl.auth.CredentialKeys;

/**
 * The SDK v1 adapter of {@link CredentialKeys}: S3A's {@code SimpleAWSCredentialsProvider} and
 * {@code TemporaryAWSCredentialsProvider}, the SDK's {@code EnvironmentVariableCredentialsProvider}. When there
 * are no keys it throws {@link V1NoCredentialsException} saying what it needs, so that the chain asks the next
 * provider. {@link #toString()} shows the provider's name and a masked access key id.
 */
final class V1KeysCredentialsProvider implements AWSCredentialsProvider {

  private final CredentialKeys keys;
  private final AWSCredentials credentials;

  V1KeysCredentialsProvider(CredentialKeys keys) {
    this.keys = keys;
    this.credentials = !keys.present() ? null
        : keys.sessionToken() != null
            ? new BasicSessionCredentials(keys.accessKey(), keys.secretKey(), keys.sessionToken())
            : new BasicAWSCredentials(keys.accessKey(), keys.secretKey());
  }

  @Override
  public AWSCredentials getCredentials() {
    if (credentials == null) {
      throw new V1NoCredentialsException(keys.needs());
    }
    return credentials;
  }

  @Override
  public void refresh() {
  }

  @Override
  public String toString() {
    return keys.toString();
  }
}
