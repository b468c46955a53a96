package io.objectcommit.store.impl.auth;

import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.impl.client.S3ClientSettings;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;

/**
 * The credential part of {@link S3ClientSettings}: keys (secrets), the provider class names as configured (after
 * the provider mapping; empty when unset or empty: each binding then asks its Hadoop line's default list, see
 * {@link CredentialProviders.Line}) and, when a custom class is listed, the configuration it is built with.
 * Package-private because it holds secrets; its {@link #toString()} and {@link #cacheKey()} do not show them.
 */
public final class CredentialSettings {

  final String accessKey;
  final String secretKey;
  final String sessionToken;
  /** The keys the values were read from (per-bucket or base), for error messages. */
  final String accessKeyName;
  final String secretKeyName;
  final String sessionTokenName;
  final List<String> providers;
  /** {@code fs.s3a.aws.credentials.provider} or its per-bucket form, whichever was read. */
  final String providerKey;
  /** Configuration for custom provider classes, per-bucket options propagated; null when none is listed. */
  private final Configuration providerConf;

  public CredentialSettings(String accessKey, String secretKey, String sessionToken, String accessKeyName,
      String secretKeyName, String sessionTokenName, List<String> providers, String providerKey,
      Configuration providerConf) {
    this.accessKey = accessKey;
    this.secretKey = secretKey;
    this.sessionToken = sessionToken;
    this.accessKeyName = accessKeyName;
    this.secretKeyName = secretKeyName;
    this.sessionTokenName = sessionTokenName;
    this.providers = S3ClientSettings.copyOf(providers);
    this.providerKey = providerKey;
    this.providerConf = providerConf;
  }

  /** A fresh copy of the configuration for provider classes (they may change what they are given). */
  Configuration providerConfiguration() {
    return new Configuration(providerConf);
  }

  /**
   * A copy of {@code conf} where each {@code fs.s3a.bucket.<bucket>.<rest>} is also set as {@code fs.s3a.<rest>},
   * as S3A gives its credential providers.
   */
  public static Configuration bucketConfiguration(Configuration conf, String bucket) {
    Configuration copy = new Configuration(conf);
    String prefix = StoreConstants.S3A_PREFIX + StoreConstants.BUCKET_INFIX + bucket + ".";
    for (Map.Entry<String, String> e : conf.getPropsWithPrefix(prefix).entrySet()) {
      if (!e.getKey().startsWith(StoreConstants.BUCKET_INFIX)) {
        copy.set(StoreConstants.S3A_PREFIX + e.getKey(), e.getValue(), "per-bucket " + prefix + e.getKey());
      }
    }
    return copy;
  }

  public String cacheKey() {
    return "providers=" + providers + ";keys=" + Secrets.hash(accessKey, secretKey, sessionToken);
  }

  @Override
  public String toString() {
    String keys = accessKey == null && secretKey == null
        ? "no keys"
        : "access key " + Secrets.mask(accessKey) + (sessionToken != null ? " with session token" : "");
    return (providers.isEmpty() ? "providers (Hadoop's default list)"
        : "providers " + providers.stream().map(CredentialProviders::displayName)
            .collect(Collectors.toList())) + ", " + keys;
  }
}
