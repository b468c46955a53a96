package io.objectcommit.store.impl.v1;

import com.amazonaws.auth.AWSCredentialsProvider;
import com.amazonaws.auth.AWSStaticCredentialsProvider;
import com.amazonaws.auth.AnonymousAWSCredentials;
import io.objectcommit.store.impl.auth.CredentialKeys;
import io.objectcommit.store.impl.auth.CredentialProviderException;
import io.objectcommit.store.impl.auth.CredentialProviders;
import io.objectcommit.store.impl.auth.CredentialProviders.BuiltIn;
import io.objectcommit.store.impl.auth.CredentialProviders.Line;
import io.objectcommit.store.impl.auth.InstanceCredentialsSource;
import io.objectcommit.store.impl.client.S3ClientSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Builds the SDK v1 credential provider of an S3 client from {@link S3ClientSettings}, as S3A 3.3.4 does
 * ({@code S3AUtils.createAWSCredentialProviderSet}): the classes of {@code fs.s3a.aws.credentials.provider}
 * (Hadoop 3.3's default list when the key is empty), asked in order by a {@link V1CredentialProviderChain}; a
 * provider with nothing to give is skipped. Which providers, in what order, the built-in ones and how custom
 * classes are built are {@link CredentialProviders}' (shared with the SDK v2 binding); this class only adapts
 * them to the SDK v1.
 *
 * <ul>
 *   <li>Built in (whatever name of {@link CredentialProviders} names them): keys with the session token, keys,
 *       the environment ({@code AWS_ACCESS_KEY_ID} and {@code AWS_SECRET_ACCESS_KEY}), container then EC2
 *       instance credentials, anonymous (unsigned requests).</li>
 *   <li>Half a key pair in the configuration (with the simple or temporary provider listed) or in the environment
 *       is an error naming the missing key, not "nothing to give".</li>
 * </ul>
 * Errors name {@code fs.s3a.aws.credentials.provider} (or its per-bucket form) and the class, never a secret.
 */
public final class V1CredentialsBinding {

  private V1CredentialsBinding() {
  }

  /**
   * The credential provider for a client built from {@code settings}, reading the process environment.
   *
   * @throws IllegalArgumentException when the environment holds half a key pair
   * @throws CredentialProviderException when a provider class cannot be used
   */
  public static AWSCredentialsProvider create(S3ClientSettings settings) {
    return create(settings, System::getenv);
  }

  /** As {@link #create(S3ClientSettings)}, with the environment variables read from {@code env}. */
  public static V1CredentialProviderChain create(S3ClientSettings settings, UnaryOperator<String> env) {
    List<AWSCredentialsProvider> list = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (String name : CredentialProviders.names(settings, Line.HADOOP_3_3)) {
      list.add(instantiate(name, settings, env));
      names.add(CredentialProviders.displayName(name));
    }
    return new V1CredentialProviderChain(CredentialProviders.providerKey(settings), names, list);
  }

  private static AWSCredentialsProvider instantiate(String name, S3ClientSettings settings,
      UnaryOperator<String> env) {
    BuiltIn builtIn = CredentialProviders.builtIn(name);
    if (builtIn == null) {
      return CredentialProviders.instantiate(settings, name, AWSCredentialsProvider.class, Line.HADOOP_3_3);
    }
    String shortName = CredentialProviders.displayName(name);
    switch (builtIn) {
      case INSTANCE:
        return new V1InstanceCredentialsProvider(new InstanceCredentialsSource(shortName, env));
      case ANONYMOUS:
        return new AWSStaticCredentialsProvider(new AnonymousAWSCredentials()) {
          @Override
          public String toString() {
            return shortName;
          }
        };
      default:
        return new V1KeysCredentialsProvider(CredentialKeys.of(builtIn, shortName, settings, env));
    }
  }
}
