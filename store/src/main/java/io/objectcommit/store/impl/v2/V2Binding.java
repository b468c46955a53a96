package io.objectcommit.store.impl.v2;

import io.objectcommit.store.audit.RequestAttribution;
import io.objectcommit.store.impl.S3Calls;
import io.objectcommit.store.impl.client.EncryptionSettings;
import io.objectcommit.store.impl.client.S3ClientSettings;
import io.objectcommit.store.impl.client.SdkBinding;
import software.amazon.awssdk.services.s3.S3Client;

/** The SDK v2 binding: clients from {@link V2ClientFactory}, requests through {@link V2Calls}. */
public final class V2Binding implements SdkBinding {

  @Override
  public String name() {
    return "v2";
  }

  @Override
  public Object newClient(S3ClientSettings settings) {
    return V2ClientFactory.create(settings);
  }

  @Override
  public S3Calls calls(Object client, S3ClientSettings settings, String bucket, EncryptionSettings encryption,
      RequestAttribution attribution) {
    return new V2Calls(bucket, (S3Client) client, encryption, settings.partUploadTimeoutMs(), attribution);
  }

  @Override
  public void shutdown(Object client) {
    ((S3Client) client).close();
  }
}
