package io.objectcommit.store.impl.v2;

import io.objectcommit.store.impl.auth.CredentialKeys;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

/**
 * The SDK v2 adapter of {@link CredentialKeys}: S3A's {@code SimpleAWSCredentialsProvider} and
 * {@code TemporaryAWSCredentialsProvider}, the SDK's {@code EnvironmentVariableCredentialsProvider}. Without keys
 * it throws {@link V2NoCredentialsException} saying what it needs, so that the chain asks the next provider.
 * {@link #toString()} shows the provider's name and a masked access key id.
 */
final class V2KeysCredentialsProvider implements AwsCredentialsProvider {

  private final CredentialKeys keys;
  private final AwsCredentials credentials;

  V2KeysCredentialsProvider(CredentialKeys keys) {
    this.keys = keys;
    this.credentials = !keys.present() ? null
        : keys.sessionToken() != null
            ? AwsSessionCredentials.create(keys.accessKey(), keys.secretKey(), keys.sessionToken())
            : AwsBasicCredentials.create(keys.accessKey(), keys.secretKey());
  }

  @Override
  public AwsCredentials resolveCredentials() {
    if (credentials == null) {
      throw V2NoCredentialsException.create(keys.needs(), null);
    }
    return credentials;
  }

  @Override
  public String toString() {
    return keys.toString();
  }
}
