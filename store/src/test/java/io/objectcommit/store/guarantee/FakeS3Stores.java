package io.objectcommit.store.guarantee;

import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.impl.FakeS3;
import io.objectcommit.store.impl.RetryPolicy;
import io.objectcommit.store.impl.S3Calls;
import io.objectcommit.store.impl.S3ObjectStore;
import io.objectcommit.store.impl.StoreOptions;
import io.objectcommit.store.impl.client.EncryptionSettings;
import io.objectcommit.store.impl.v1.V1Calls;

/**
 * S3 stores of one bucket on one scripted client ({@link FakeS3}, no network), each inside the guarantee policy as
 * {@code ObjectStores.open} builds it, all sharing one verdict cache: what the stores of one context share.
 */
final class FakeS3Stores {

  static final String BUCKET = "test-bucket";
  static final String WHERE = "bucket 'test-bucket' at endpoint http://fake.invalid:1 (region us-east-1)";
  private static final int MIB = 1024 * 1024;

  final FakeS3 s3 = new FakeS3();
  final StoreGuarantees verdicts = new StoreGuarantees();
  /** Retries wait 1 ms. */
  private final StoreOptions options = new StoreOptions(new RetryPolicy(3, 5, 2, 1, 1), 5 * MIB, 5 * MIB);

  /** A new store in {@code mode}; its check writes through another S3 store of the same client. */
  ObjectStore open(GuaranteeSettings.Mode mode) {
    return new GuardedObjectStore(s3Store(), new GuaranteeSettings(mode), verdicts, WHERE,
        options.multipartThreshold(), this::s3Store);
  }

  private S3ObjectStore s3Store() {
    S3Calls calls = new V1Calls(BUCKET, s3.client(), EncryptionSettings.none());
    return new S3ObjectStore(BUCKET, calls, options, WHERE, () -> { });
  }
}
