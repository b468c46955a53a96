package io.objectcommit.store;

import io.objectcommit.store.audit.AuditSettings;
import io.objectcommit.store.config.ConfigReader;
import io.objectcommit.store.guarantee.AmazonS3Endpoint;
import io.objectcommit.store.guarantee.GuaranteeSettings;
import io.objectcommit.store.guarantee.VerdictSharing;
import io.objectcommit.store.impl.StoreOptions;
import io.objectcommit.store.impl.client.S3ClientSettings;
import io.objectcommit.store.impl.client.SdkBinding;
import io.objectcommit.store.impl.client.SdkBindings;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;

/**
 * The whole configuration of one S3 store, parsed once per {@link StoreContext#open} through one
 * {@link ConfigReader}: the client's settings ({@link S3ClientSettings}), the request path's options
 * ({@link StoreOptions}), the guarantee policy's settings ({@link GuaranteeSettings}), the SDK binding, the
 * attribution header's settings ({@link AuditSettings}) and the sharing of the guarantee check's verdict with the
 * verdict the configuration carries ({@link VerdictSharing}).
 * Immutable, and handed down whole, so that nothing below reads the Hadoop configuration again. A bad value fails
 * in {@link #from}, naming the key in force.
 */
final class StoreConfig {

  private final S3ClientSettings client;
  private final StoreOptions options;
  private final GuaranteeSettings guarantees;
  private final SdkBinding sdk;
  private final AmazonS3Endpoint amazonS3;
  private final AuditSettings audit;
  private final VerdictSharing sharing;

  private StoreConfig(S3ClientSettings client, StoreOptions options, GuaranteeSettings guarantees, SdkBinding sdk,
      AmazonS3Endpoint amazonS3, AuditSettings audit, VerdictSharing sharing) {
    this.client = client;
    this.options = options;
    this.guarantees = guarantees;
    this.sdk = sdk;
    this.amazonS3 = amazonS3;
    this.audit = audit;
    this.sharing = sharing;
  }

  /** The configuration of {@code bucket}'s store. */
  static StoreConfig from(Configuration conf, String bucket) throws IOException {
    return from(new ConfigReader(conf, bucket));
  }

  /**
   * The configuration of the reader's bucket, read in this order (the first bad value is the one reported):
   * client settings, request options, guarantee settings, SDK, attribution header, verdict sharing.
   *
   * @throws IllegalArgumentException for a bad value, naming the key
   * @throws SdkMissingException when the SDK asked for (or any, with {@code auto}) is not on the classpath
   * @throws IOException when a Hadoop credential provider cannot be read
   */
  static StoreConfig from(ConfigReader reader) throws IOException {
    S3ClientSettings client = S3ClientSettings.from(reader);
    StoreOptions options = StoreOptions.from(reader);
    GuaranteeSettings guarantees = GuaranteeSettings.from(reader);
    SdkBinding sdk = SdkBindings.choose(reader);
    AuditSettings audit = AuditSettings.from(reader);
    VerdictSharing sharing = VerdictSharing.from(reader, client.describe());
    return new StoreConfig(client, options, guarantees, sdk, AmazonS3Endpoint.of(client.endpointUrl(),
        client.bucket()), audit, sharing);
  }

  String bucket() {
    return client.bucket();
  }

  S3ClientSettings client() {
    return client;
  }

  StoreOptions options() {
    return options;
  }

  GuaranteeSettings guarantees() {
    return guarantees;
  }

  SdkBinding sdk() {
    return sdk;
  }

  /** Whether the store is Amazon S3 (decided from the endpoint, the SDK's environment and the bucket's name). */
  AmazonS3Endpoint amazonS3() {
    return amazonS3;
  }

  AuditSettings audit() {
    return audit;
  }

  VerdictSharing sharing() {
    return sharing;
  }

  /** The bucket and endpoint, for messages (never credentials). */
  String where() {
    return client.describe();
  }

  @Override
  public String toString() {
    return "StoreConfig{" + client.describe() + ", " + options + ", " + guarantees + ", SDK " + sdk.name() + ", "
        + amazonS3 + ", " + audit + ", " + sharing + "}";
  }
}
