package io.objectcommit.store.impl.v1;

import static io.objectcommit.store.impl.client.S3ClientSettingsTest.conf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.ClientConfiguration;
import com.amazonaws.Protocol;
import com.amazonaws.retry.PredefinedRetryPolicies;
import com.amazonaws.services.s3.AmazonS3;
import io.objectcommit.store.impl.client.S3ClientCache;
import io.objectcommit.store.impl.client.S3ClientSettings;
import io.objectcommit.store.impl.client.SdkBinding;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Building clients and sharing them; nothing connects. */
class V1ClientFactoryTest {

  private static S3ClientSettings settings(String... kv) throws IOException {
    return S3ClientSettings.from(conf(kv), "test-bucket");
  }

  @Test
  void clientConfigurationCarriesPoolTimeoutsAndNoRetries() throws IOException {
    ClientConfiguration cc = V1ClientFactory.clientConfiguration(settings("fs.s3a.connection.maximum", "12",
        "fs.s3a.connection.establish.timeout", "1s", "fs.s3a.connection.timeout", "2s",
        "fs.s3a.connection.request.timeout", "3s", "fs.s3a.connection.ssl.enabled", "false"));
    assertEquals(12, cc.getMaxConnections());
    assertEquals(1_000, cc.getConnectionTimeout());
    assertEquals(2_000, cc.getSocketTimeout());
    assertEquals(3_000, cc.getRequestTimeout());
    assertEquals(Protocol.HTTP, cc.getProtocol());
    assertEquals("objectcommit", cc.getUserAgentSuffix());
    assertSame(PredefinedRetryPolicies.NO_RETRY_POLICY, cc.getRetryPolicy());
    assertEquals(0, cc.getMaxErrorRetry());
    assertFalse(cc.useThrottledRetries());
    assertEquals(Protocol.HTTPS, V1ClientFactory.clientConfiguration(settings()).getProtocol());
  }

  @Test
  void expectContinueFollowsTheS3aKeyOnTheSdkV1Too() throws IOException {
    assertTrue(V1ClientFactory.clientConfiguration(settings()).isUseExpectContinue(), "the default: on");
    assertFalse(V1ClientFactory.clientConfiguration(settings("fs.s3a.connection.expect.continue", "false"))
        .isUseExpectContinue());
  }

  @Test
  void pathStyleClientOnACustomEndpoint() throws IOException {
    AmazonS3 s3 = V1ClientFactory.create(settings("fs.s3a.endpoint", "http://127.0.0.1:4566",
        "fs.s3a.path.style.access", "true", "fs.s3a.endpoint.region", "eu-west-2"));
    try {
      assertEquals("http://127.0.0.1:4566/test-bucket/dir/key", s3.getUrl("test-bucket", "dir/key").toString());
      assertEquals("eu-west-2", s3.getRegionName());
    } finally {
      s3.shutdown();
    }
  }

  @Test
  void virtualHostClientOfAnAwsRegion() throws IOException {
    AmazonS3 s3 = V1ClientFactory.create(settings("fs.s3a.endpoint.region", "eu-central-1"));
    try {
      assertEquals("https://test-bucket.s3.eu-central-1.amazonaws.com/key", s3.getUrl("test-bucket", "key")
          .toString());
      assertEquals("eu-central-1", s3.getRegionName());
    } finally {
      s3.shutdown();
    }
  }

  private static final SdkBinding V1 = new V1Binding();

  @Test
  void cacheSharesClientsByReferenceCount() throws IOException {
    S3ClientSettings a = settings("fs.s3a.endpoint", "http://127.0.0.1:4566");
    S3ClientSettings sameAsA = settings("fs.s3a.endpoint", "http://127.0.0.1:4566/");
    S3ClientSettings b = settings("fs.s3a.endpoint", "http://127.0.0.1:4567");
    S3ClientCache cache = new S3ClientCache();
    S3ClientCache.Lease l1 = cache.acquire(a, V1);
    S3ClientCache.Lease l2 = cache.acquire(sameAsA, V1);
    S3ClientCache.Lease other = cache.acquire(b, V1);
    assertSame(l1.client(), l2.client());
    assertNotSame(l1.client(), other.client());
    assertEquals(2, cache.size());
    assertEquals(3, cache.leasesHeld());

    Object first = l1.client();
    l1.close();
    l1.close(); // idempotent: does not release l2's hold
    assertSame(first, l2.client());
    assertThrows(IllegalStateException.class, l1::client);
    l2.close();
    assertEquals(1, cache.size());

    try (S3ClientCache.Lease again = cache.acquire(a, V1)) {
      assertNotSame(first, again.client());
      assertTrue(again.toString().startsWith("Lease{bucket 'test-bucket' at endpoint http://127.0.0.1:4566"));
    }
    other.close();
    assertEquals(0, cache.size());
    assertEquals(3, cache.clientsBuilt());
    try (S3ClientCache.Lease own = new S3ClientCache().acquire(a, V1)) {
      assertEquals(0, cache.leasesHeld(), "another cache shares nothing with this one");
    }
  }
}
