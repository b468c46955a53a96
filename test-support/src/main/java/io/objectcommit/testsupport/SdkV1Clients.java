package io.objectcommit.testsupport;

import com.amazonaws.ClientConfiguration;
import com.amazonaws.auth.AWSStaticCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.client.builder.AwsClientBuilder;
import com.amazonaws.services.s3.AmazonS3;
import com.amazonaws.services.s3.AmazonS3ClientBuilder;

/** The one place test-support builds an AWS SDK v1 client (loaded only when a test asks for one). */
final class SdkV1Clients {

  private SdkV1Clients() {
  }

  static AmazonS3 newClient(S3Endpoint e) {
    ClientConfiguration cc = new ClientConfiguration()
        .withMaxErrorRetry(3)
        .withConnectionTimeout(10_000)
        .withSocketTimeout(60_000);
    return AmazonS3ClientBuilder.standard()
        .withEndpointConfiguration(new AwsClientBuilder.EndpointConfiguration(e.uri().toString(), e.region()))
        .withCredentials(new AWSStaticCredentialsProvider(new BasicAWSCredentials(e.accessKey(), e.secretKey())))
        .withPathStyleAccessEnabled(e.pathStyle())
        .withClientConfiguration(cc)
        .build();
  }
}
