package io.objectcommit.fs.it;

import io.objectcommit.fs.ObjectStore;
import io.objectcommit.fs.config.ConfigReader;
import io.objectcommit.fs.impl.S3ClientSettings;
import io.objectcommit.fs.impl.S3ObjectStore;
import io.objectcommit.fs.impl.StoreOptions;
import io.objectcommit.fs.impl.v2.V2Calls;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Test-only SDK v2 clients from endpoint, region, path style and static keys, until the production client
 * factory (V2ClientFactory) is merged: the store above it is the production one.
 */
final class V2TestClients {

  private V2TestClients() {
  }

  static ObjectStore open(String bucket, Configuration conf) throws IOException {
    S3ClientSettings s = S3ClientSettings.from(conf, bucket);
    S3Client client = S3Client.builder()
        .endpointOverride(URI.create(s.endpointUrl()))
        .region(Region.of(s.region()))
        .forcePathStyle(s.pathStyleAccess())
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
            conf.get("fs.s3a.access.key"), conf.get("fs.s3a.secret.key"))))
        .overrideConfiguration(o -> o.retryPolicy(RetryPolicy.none()))
        .httpClientBuilder(ApacheHttpClient.builder().maxConnections(s.maxConnections())
            .connectionTimeout(Duration.ofMillis(s.establishTimeoutMs()))
            .socketTimeout(Duration.ofMillis(s.socketTimeoutMs())))
        .build();
    return new S3ObjectStore(bucket, new V2Calls(bucket, client, s.encryption()),
        StoreOptions.from(new ConfigReader(conf, bucket)), s.describe(), client::close, Thread::sleep);
  }
}
