package io.objectcommit.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.s3.AmazonS3;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The extension gives each scope a fresh, empty, usable place in S3 on the chosen endpoint. */
@S3IntegrationTest
class S3ExtensionIT {

  private static S3TestBucket classBucket;

  @BeforeAll
  static void classScope(S3TestBucket bucket) {
    classBucket = bucket;
    bucket.client().putObject(bucket.name(), bucket.key("from-before-all"), "x");
  }

  @Test
  void aTestGetsAFreshEmptyBucketItCanWriteAndRead(S3TestBucket bucket, S3Endpoint endpoint) {
    assertEquals(endpoint, bucket.endpoint());
    assertTrue(bucket.listKeys("").isEmpty(), "fresh: " + bucket.listKeys(""));
    AmazonS3 s3 = bucket.client();
    s3.putObject(bucket.name(), bucket.key("dir/a.txt"), "hello");
    assertEquals("hello", s3.getObjectAsString(bucket.name(), bucket.key("dir/a.txt")));
    assertEquals(List.of(bucket.key("dir/a.txt")), bucket.listKeys("dir/"));
    assertEquals("s3a://" + bucket.name() + "/" + bucket.prefix() + "dir/a.txt", bucket.s3a("dir/a.txt"));
  }

  @Test
  void testsDoNotShareBuckets(S3TestBucket bucket) {
    assertNotEquals(classBucket.name() + "/" + classBucket.prefix(), bucket.name() + "/" + bucket.prefix());
    assertTrue(bucket.listKeys("").isEmpty());
    assertEquals(List.of(classBucket.key("from-before-all")), classBucket.listKeys(""));
  }

  @Test
  void localStackListensOnLoopbackOnly(S3Endpoint endpoint) {
    if (endpoint.kind() == S3Endpoint.Kind.HOST) {
      assertEquals("127.0.0.1", endpoint.uri().getHost());
    }
  }
}
