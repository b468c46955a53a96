package io.objectcommit.store.it;

import io.objectcommit.store.testing.AbstractObjectStoreContractTest;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import org.junit.jupiter.api.BeforeEach;

/**
 * The {@link AbstractObjectStoreContractTest} on the real {@code S3ObjectStore} against an S3 implementation
 * (LocalStack unless configured otherwise): the behaviour the in-memory store of the unit tests is checked
 * against ({@code InMemoryObjectStoreTest} runs the same suite). Run on each SDK binding
 * ({@link S3ObjectStoreContractV1IT}, {@link S3ObjectStoreContractV2IT}).
 */
@S3IntegrationTest
abstract class S3ObjectStoreContractIT extends AbstractObjectStoreContractTest {

  /** The binding under test. */
  abstract Sdk sdk();

  @BeforeEach
  void open(S3TestBucket bucket) throws Exception {
    use(sdk().open(bucket.name(), contractConfiguration(bucket.hadoopConfiguration())), bucket.key(""));
  }
}
