package io.objectcommit.store.impl.v1;

import com.amazonaws.ClientConfiguration;
import com.amazonaws.Protocol;
import com.amazonaws.SdkClientException;
import com.amazonaws.client.builder.AwsClientBuilder;
import com.amazonaws.retry.PredefinedRetryPolicies;
import com.amazonaws.services.s3.AmazonS3;
import com.amazonaws.services.s3.AmazonS3ClientBuilder;
import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.impl.client.S3ClientCache;
import io.objectcommit.store.impl.client.S3ClientSettings;

/**
 * Builds an AWS SDK v1 S3 client from {@link S3ClientSettings}. The SDK's own retries are switched off: the store
 * retries (and counts) every request itself, so a failure surfaces after its bounded retry budget, never after
 * minutes of silent SDK retries. Building connects to nothing.
 *
 * <p>Prefer {@link S3ClientCache#acquire}, which shares one client per bucket and configuration.
 */
public final class V1ClientFactory {

  /** Appended to the SDK's user agent, so that server logs show our requests. */
  public static final String USER_AGENT_SUFFIX = "objectcommit";

  private V1ClientFactory() {
  }

  /**
   * A new client; the caller shuts it down.
   *
   * @throws IllegalArgumentException when the credential providers or the region cannot be used
   */
  public static AmazonS3 create(S3ClientSettings s) {
    AmazonS3ClientBuilder b = AmazonS3ClientBuilder.standard()
        .withClientConfiguration(clientConfiguration(s))
        .withCredentials(V1CredentialsBinding.create(s))
        .withPathStyleAccessEnabled(s.pathStyleAccess());
    if (s.endpointUrl() != null) {
      b.withEndpointConfiguration(new AwsClientBuilder.EndpointConfiguration(s.endpointUrl(), s.region()));
    } else {
      b.withRegion(s.region());
    }
    try {
      return b.build();
    } catch (SdkClientException e) {
      throw new IllegalArgumentException("Cannot build the S3 client of " + s.describe() + " (check "
          + StoreConstants.ENDPOINT + " and " + StoreConstants.ENDPOINT_REGION + "): " + e.getMessage(), e);
    }
  }

  /** The HTTP settings of a client: pool, timeouts, protocol, user agent, Expect: 100-continue, no SDK retries. */
  static ClientConfiguration clientConfiguration(S3ClientSettings s) {
    ClientConfiguration cc = new ClientConfiguration();
    cc.setMaxConnections(s.maxConnections());
    cc.setConnectionTimeout(s.establishTimeoutMs());
    cc.setSocketTimeout(s.socketTimeoutMs());
    cc.setRequestTimeout(s.requestTimeoutMs());
    cc.setProtocol(s.https() ? Protocol.HTTPS : Protocol.HTTP);
    cc.setUserAgentSuffix(USER_AGENT_SUFFIX);
    cc.setUseExpectContinue(s.expectContinue());
    cc.setRetryPolicy(PredefinedRetryPolicies.NO_RETRY_POLICY);
    cc.setMaxErrorRetry(0);
    cc.setUseThrottleRetries(false);
    return cc;
  }
}
