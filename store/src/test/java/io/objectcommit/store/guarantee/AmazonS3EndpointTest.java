package io.objectcommit.store.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.guarantee.AmazonS3Endpoint.Form;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which configurations are Amazon S3, by the endpoint forms AWS documents (docs/stores.md lists them with their
 * sources), and which are not: every form of Amazon S3 once, and the look-alikes that must still be checked. The
 * environment and system properties are given, so the process's own never matter here.
 */
class AmazonS3EndpointTest {

  private static final UnaryOperator<String> NONE = k -> null;

  private static AmazonS3Endpoint decide(String endpoint, String bucket) {
    return AmazonS3Endpoint.of(endpoint, bucket, NONE, NONE);
  }

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource({
      // the global and regional endpoints, legacy forms included
      "https://s3.amazonaws.com, GLOBAL",
      "https://s3-external-1.amazonaws.com, LEGACY_REGIONAL",
      "https://s3.eu-west-1.amazonaws.com, REGIONAL",
      "http://s3.eu-west-1.amazonaws.com, REGIONAL",
      "https://s3.eu-west-1.amazonaws.com:443, REGIONAL",
      "https://s3.ap-southeast-4.amazonaws.com, REGIONAL",
      "https://s3-eu-west-1.amazonaws.com, LEGACY_REGIONAL",
      // dual-stack and FIPS
      "https://s3.dualstack.us-east-2.amazonaws.com, DUAL_STACK",
      "https://s3-fips.us-east-2.amazonaws.com, FIPS",
      "https://s3-fips.dualstack.us-east-1.amazonaws.com, FIPS",
      // GovCloud
      "https://s3.us-gov-west-1.amazonaws.com, REGIONAL",
      "https://s3.dualstack.us-gov-east-1.amazonaws.com, DUAL_STACK",
      "https://s3-fips.us-gov-west-1.amazonaws.com, FIPS",
      "https://s3-fips-us-gov-west-1.amazonaws.com, FIPS",
      // China
      "https://s3.cn-north-1.amazonaws.com.cn, REGIONAL",
      "https://s3.dualstack.cn-northwest-1.amazonaws.com.cn, DUAL_STACK",
      // access points
      "https://test-123456789012.s3-accesspoint.us-west-2.amazonaws.com, ACCESS_POINT",
      "https://s3-accesspoint.us-west-2.amazonaws.com, ACCESS_POINT",
      "https://s3-accesspoint.dualstack.us-west-2.amazonaws.com, ACCESS_POINT",
      "https://s3-accesspoint-fips.us-east-1.amazonaws.com, ACCESS_POINT",
      "https://ap-111122223333.s3-accesspoint.cn-north-1.amazonaws.com.cn, ACCESS_POINT",
      // directory buckets' zonal endpoints
      "https://s3express-usw2-az1.us-west-2.amazonaws.com, DIRECTORY_ZONAL",
      "https://s3express-use1-az4.dualstack.us-east-1.amazonaws.com, DIRECTORY_ZONAL",
      // PrivateLink interface endpoints
      "https://bucket.vpce-1a2b3c4d-5e6f.s3.us-east-1.vpce.amazonaws.com, PRIVATE_LINK",
      "https://accesspoint.vpce-1a2b3c4d-5e6f.s3.us-east-1.vpce.amazonaws.com, PRIVATE_LINK",
      "https://bucket.vpce-0a1b2c3d-4e5f6a7b.s3.cn-north-1.vpce.amazonaws.com.cn, PRIVATE_LINK",
  })
  void everyEndpointFormOfAmazonS3IsRecognised(String endpoint, Form form) {
    AmazonS3Endpoint e = decide(endpoint, "lake");
    assertTrue(e.isAmazonS3(), e.toString());
    assertEquals(form, e.form());
    assertTrue(e.reason().contains(endpoint) && e.reason().contains(form.description()), e.reason());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      // other stores
      "http://127.0.0.1:4566",
      "http://localhost:9000",
      "https://minio.example.com",
      "https://storage.googleapis.com",
      "https://0123456789abcdef.r2.cloudflarestorage.com",
      // amazonaws.com names that are not an S3 endpoint: another store on EC2 or behind a load balancer
      "https://ec2-3-80-1-1.compute-1.amazonaws.com",
      "https://minio-1234567890.us-east-1.elb.amazonaws.com",
      // S3 endpoints of kinds not covered: websites, acceleration, Multi-Region Access Points, Outposts, the
      // control plane of directory buckets, an endpoint that includes the bucket
      "https://lake.s3-website-us-east-1.amazonaws.com",
      "https://s3-website.eu-west-1.amazonaws.com",
      "https://s3-accelerate.amazonaws.com",
      "https://mfzwi23gnjvgw.mrap.accesspoint.s3-global.amazonaws.com",
      "https://s3-outposts.us-west-2.amazonaws.com",
      "https://s3express-control.us-west-2.amazonaws.com",
      "https://lake.s3.eu-west-1.amazonaws.com",
      // a port AWS does not listen on; partition and region that do not go together; look-alike domains
      "https://s3.eu-west-1.amazonaws.com:9000",
      "https://s3.cn-north-1.amazonaws.com",
      "https://s3.eu-west-1.amazonaws.com.cn",
      "https://s3.eu-west-1.amazonaws.com.evil.example",
      "https://s3.amazonaws.com.evil.example",
      "https://s3.eu-west-1.amazonaws.co",
      // partitions not covered by the announcements cited (docs/stores.md)
      "https://s3.eusc-de-east-1.amazonaws.eu",
      "https://s3.us-iso-east-1.c2s.ic.gov",
  })
  void everyOtherEndpointIsChecked(String endpoint) {
    AmazonS3Endpoint e = decide(endpoint, "lake");
    assertFalse(e.isAmazonS3(), e.toString());
    assertNull(e.form());
    assertTrue(e.reason().contains(endpoint), e.reason());
  }

  @Test
  void withoutAnEndpointTheSdksOwnIsAmazonS3() {
    assertEquals(Form.SDK_DEFAULT, decide(null, "lake").form());
    assertEquals(Form.SDK_DEFAULT, decide(null, "my-ap-abcdefghijklmnopqrstuvwxyz-s3alias").form(),
        "an access point alias is a bucket name");
    assertEquals(Form.DIRECTORY_BUCKET, decide(null, "lake--usw2-az1--x-s3").form());
    assertEquals(Form.DIRECTORY_BUCKET, decide(null, "lake--use1-az4--x-s3").form());
    assertEquals(Form.ACCESS_POINT_ARN, decide(null, "arn:aws:s3:us-west-2:123456789012:accesspoint/test").form());
    assertEquals(Form.ACCESS_POINT_ARN,
        decide(null, "arn:aws-us-gov:s3:us-gov-west-1:123456789012:accesspoint/test").form());
    assertEquals(Form.ACCESS_POINT_ARN, decide(null, "arn:aws-cn:s3:cn-north-1:123456789012:accesspoint/t").form());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "lake.mrap",
      "arn:aws:s3::123456789012:accesspoint/mfzwi23gnjvgw.mrap",
      "arn:aws:s3-outposts:us-west-2:123456789012:outpost/op-01ac5d28a6a232904/accesspoint/test",
      "arn:aws:s3-object-lambda:us-west-2:123456789012:accesspoint/test",
  })
  void bucketsThatNameAnotherKindOfStoreAreChecked(String bucket) {
    AmazonS3Endpoint e = decide(null, bucket);
    assertFalse(e.isAmazonS3(), e.toString());
    assertTrue(e.reason().contains(bucket), e.reason());
  }

  @Test
  void theSdksConfiguredEndpointCountsWhenNoneIsSet() {
    Map<String, String> env = Map.of("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:9000");
    AmazonS3Endpoint minio = AmazonS3Endpoint.of(null, "lake", env::get, NONE);
    assertFalse(minio.isAmazonS3(), minio.toString());
    assertTrue(minio.reason().contains("http://127.0.0.1:9000"), minio.reason());
    assertFalse(AmazonS3Endpoint.of(null, "lake", Map.of("AWS_ENDPOINT_URL", "http://minio:9000")::get, NONE)
        .isAmazonS3(), "the endpoint of every service");

    // the S3 one wins over the general one, a system property over the environment
    Map<String, String> both = Map.of("AWS_ENDPOINT_URL_S3", "https://s3.eu-west-1.amazonaws.com",
        "AWS_ENDPOINT_URL", "http://minio:9000");
    assertEquals(Form.REGIONAL, AmazonS3Endpoint.of(null, "lake", both::get, NONE).form());
    Map<String, String> props = Map.of("aws.endpointUrlS3", "http://minio:9000");
    assertFalse(AmazonS3Endpoint.of(null, "lake", both::get, props::get).isAmazonS3());

    // ignored where the SDK is told to ignore them; fs.s3a.endpoint wins over them
    Map<String, String> ignored = Map.of("AWS_ENDPOINT_URL_S3", "http://minio:9000",
        "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true");
    assertEquals(Form.SDK_DEFAULT, AmazonS3Endpoint.of(null, "lake", ignored::get, NONE).form());
    assertEquals(Form.SDK_DEFAULT, AmazonS3Endpoint.of(null, "lake", env::get,
        Map.of("aws.ignoreConfiguredEndpointUrls", "true")::get).form());
    assertEquals(Form.REGIONAL, AmazonS3Endpoint.of("https://s3.eu-west-1.amazonaws.com", "lake", env::get, NONE)
        .form());
  }
}
