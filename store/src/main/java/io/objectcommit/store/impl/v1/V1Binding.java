package io.objectcommit.store.impl.v1;

import com.amazonaws.services.s3.AmazonS3;
import io.objectcommit.store.audit.RequestAttribution;
import io.objectcommit.store.impl.S3Calls;
import io.objectcommit.store.impl.client.EncryptionSettings;
import io.objectcommit.store.impl.client.S3ClientSettings;
import io.objectcommit.store.impl.client.SdkBinding;

/** The SDK v1 binding: clients from {@link V1ClientFactory}, requests through {@link V1Calls}. */
public final class V1Binding implements SdkBinding {

  @Override
  public String name() {
    return "v1";
  }

  @Override
  public Object newClient(S3ClientSettings settings) {
    return V1ClientFactory.create(settings);
  }

  @Override
  public S3Calls calls(Object client, S3ClientSettings settings, String bucket, EncryptionSettings encryption,
      RequestAttribution attribution) {
    return new V1Calls(bucket, (AmazonS3) client, encryption, attribution);
  }

  @Override
  public void shutdown(Object client) {
    ((AmazonS3) client).shutdown();
  }
}
