package io.objectcommit.store.impl.v1;

import com.amazonaws.SdkClientException;
import com.amazonaws.auth.AWSCredentials;
import com.amazonaws.auth.AWSCredentialsProvider;
import com.amazonaws.auth.AnonymousAWSCredentials;
import io.objectcommit.store.impl.auth.CredentialChain;
import java.util.List;

/**
 * The SDK v1 adapter of {@link CredentialChain}: the providers of {@code fs.s3a.aws.credentials.provider}, asked
 * in order as S3A's {@code AWSCredentialProviderList} asks them; a provider that throws an
 * {@link SdkClientException} (ours throw {@link V1NoCredentialsException}) is skipped. When none gives credentials,
 * one {@link V1NoCredentialsException} lists every provider with what it needed.
 */
public final class V1CredentialProviderChain implements AWSCredentialsProvider {

  private final CredentialChain<AWSCredentialsProvider, AWSCredentials> chain;

  V1CredentialProviderChain(String key, List<String> names, List<AWSCredentialsProvider> providers) {
    this.chain = new CredentialChain<>(key, names, providers, new V1());
  }

  /** The providers, in the order they are asked. */
  public List<AWSCredentialsProvider> providers() {
    return chain.providers();
  }

  @Override
  public AWSCredentials getCredentials() {
    return chain.resolve();
  }

  @Override
  public void refresh() {
    chain.forget();
    for (AWSCredentialsProvider p : chain.providers()) {
      p.refresh();
    }
  }

  /** The providers in order; no secrets (the built-in ones show a masked access key id at most). */
  @Override
  public String toString() {
    return "V1CredentialProviderChain" + chain;
  }

  private static final class V1 implements CredentialChain.Sdk<AWSCredentialsProvider, AWSCredentials> {
    @Override
    public AWSCredentials ask(AWSCredentialsProvider provider) {
      return provider.getCredentials();
    }

    @Override
    public boolean usable(AWSCredentials creds) {
      return creds instanceof AnonymousAWSCredentials
          || creds != null && creds.getAWSAccessKeyId() != null && creds.getAWSSecretKey() != null;
    }

    @Override
    public boolean nothingToGive(RuntimeException e) {
      return e instanceof SdkClientException;
    }

    @Override
    public String ownMessage(AWSCredentialsProvider p, RuntimeException e) {
      boolean ours = p instanceof V1KeysCredentialsProvider || p instanceof V1InstanceCredentialsProvider;
      return ours && e instanceof V1NoCredentialsException ? e.getMessage() : null;
    }

    @Override
    public RuntimeException noCredentials(String message, RuntimeException cause) {
      return new V1NoCredentialsException(message, cause);
    }
  }
}
