package io.objectcommit.store.impl.v2;

import io.objectcommit.store.impl.auth.CredentialChain;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * The SDK v2 adapter of {@link CredentialChain}: the providers of {@code fs.s3a.aws.credentials.provider}, asked
 * in order as S3A 3.4's {@code AWSCredentialProviderList} asks them; a provider that throws an SDK
 * {@link SdkClientException} (ours throw {@link V2NoCredentialsException}) is skipped. When none gives
 * credentials, one {@link V2NoCredentialsException} lists every provider with what it needed. Closing it closes
 * the providers that can be closed.
 */
public final class V2CredentialProviderChain implements AwsCredentialsProvider, SdkAutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(V2CredentialProviderChain.class);

  private final CredentialChain<AwsCredentialsProvider, AwsCredentials> chain;

  V2CredentialProviderChain(String key, List<String> names, List<AwsCredentialsProvider> providers) {
    this.chain = new CredentialChain<>(key, names, providers, new V2());
  }

  /** The providers, in the order they are asked. */
  public List<AwsCredentialsProvider> providers() {
    return chain.providers();
  }

  @Override
  public AwsCredentials resolveCredentials() {
    return chain.resolve();
  }

  @Override
  public void close() {
    for (AwsCredentialsProvider p : chain.providers()) {
      if (p instanceof AutoCloseable) {
        try {
          ((AutoCloseable) p).close();
        } catch (Exception e) {
          LOG.warn("Closing credential provider {} failed: {}", p, e.toString());
          LOG.debug("Closing credential provider {} failed", p, e);
        }
      }
    }
  }

  /** The providers in order; no secrets (the built-in ones show a masked access key id at most). */
  @Override
  public String toString() {
    return "V2CredentialProviderChain" + chain;
  }

  private static final class V2 implements CredentialChain.Sdk<AwsCredentialsProvider, AwsCredentials> {
    @Override
    public AwsCredentials ask(AwsCredentialsProvider provider) {
      return provider.resolveCredentials();
    }

    @Override
    public boolean usable(AwsCredentials creds) {
      // The SDK's anonymous credentials have neither key: the signer then leaves requests unsigned.
      return creds != null && (creds.accessKeyId() != null && creds.secretAccessKey() != null
          || creds.accessKeyId() == null && creds.secretAccessKey() == null);
    }

    @Override
    public boolean nothingToGive(RuntimeException e) {
      return e instanceof SdkClientException;
    }

    @Override
    public String ownMessage(AwsCredentialsProvider p, RuntimeException e) {
      boolean ours = p instanceof V2KeysCredentialsProvider || p instanceof V2InstanceCredentialsProvider;
      return ours && e instanceof V2NoCredentialsException ? e.getMessage() : null;
    }

    @Override
    public RuntimeException noCredentials(String message, RuntimeException cause) {
      return V2NoCredentialsException.create(message, cause);
    }
  }

  /** Anonymous credentials, named as S3A names them. */
  static final class Anonymous implements AwsCredentialsProvider {
    private final String name;

    Anonymous(String name) {
      this.name = name;
    }

    @Override
    public AwsCredentials resolveCredentials() {
      return AnonymousCredentialsProvider.create().resolveCredentials();
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
