package io.objectcommit.store.impl.v2;

import io.objectcommit.store.impl.auth.CredentialKeys;
import io.objectcommit.store.impl.auth.CredentialProviders;
import io.objectcommit.store.impl.auth.CredentialProviders.BuiltIn;
import io.objectcommit.store.impl.auth.CredentialProviders.Line;
import io.objectcommit.store.impl.auth.InstanceCredentialsSource;
import io.objectcommit.store.impl.client.S3ClientSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/**
 * Builds the SDK v2 credential provider of an S3 client from {@link S3ClientSettings}, as S3A 3.4 does
 * ({@code CredentialProviderListFactory}): the classes of {@code fs.s3a.aws.credentials.provider} (Hadoop 3.4's
 * default list when empty), each renamed by {@code fs.s3a.aws.credentials.provider.mapping} when it names it,
 * asked in order by a {@link V2CredentialProviderChain}; a provider with nothing to give is skipped. Which
 * providers, in what order, and how custom classes are built are {@link CredentialProviders}' (shared with the SDK
 * v1 binding); this class only adapts them to the SDK v2.
 *
 * <ul>
 *   <li>Built in, whatever name (S3A's, the SDK v1's that S3A 3.4 remaps, the SDK v2's environment provider):
 *       keys with the session token, keys, the environment, container then EC2 instance credentials,
 *       anonymous.</li>
 *   <li>Custom classes must implement the SDK v2's {@link AwsCredentialsProvider} (Spark 4 has no SDK v1) and
 *       are built through a constructor {@code (URI, Configuration)}, {@code (Configuration)}, a static
 *       {@code create()} or a constructor {@code ()}.</li>
 * </ul>
 * Errors name {@code fs.s3a.aws.credentials.provider} (or its per-bucket form) and the class, never a secret.
 */
public final class V2CredentialsBinding {

  private V2CredentialsBinding() {
  }

  /**
   * The credential provider for a client built from {@code settings}, reading the process environment. Close it
   * with the client.
   *
   * @throws IllegalArgumentException when the environment holds half a key pair
   * @throws io.objectcommit.store.impl.auth.CredentialProviderException when a provider class cannot be used
   */
  public static V2CredentialProviderChain create(S3ClientSettings settings) {
    return create(settings, System::getenv);
  }

  /** As {@link #create(S3ClientSettings)}, with the environment variables read from {@code env}. */
  static V2CredentialProviderChain create(S3ClientSettings settings, UnaryOperator<String> env) {
    List<AwsCredentialsProvider> list = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (String name : CredentialProviders.names(settings, Line.HADOOP_3_4)) {
      list.add(instantiate(name, settings, env));
      names.add(CredentialProviders.displayName(name));
    }
    return new V2CredentialProviderChain(CredentialProviders.providerKey(settings), names, list);
  }

  private static AwsCredentialsProvider instantiate(String name, S3ClientSettings settings,
      UnaryOperator<String> env) {
    BuiltIn builtIn = CredentialProviders.builtIn(name);
    if (builtIn == null) {
      return CredentialProviders.instantiate(settings, name, AwsCredentialsProvider.class, Line.HADOOP_3_4);
    }
    String shortName = CredentialProviders.displayName(name);
    switch (builtIn) {
      case INSTANCE:
        return new V2InstanceCredentialsProvider(new InstanceCredentialsSource(shortName, env));
      case ANONYMOUS:
        return new V2CredentialProviderChain.Anonymous(shortName);
      default:
        return new V2KeysCredentialsProvider(CredentialKeys.of(builtIn, shortName, settings, env));
    }
  }
}
