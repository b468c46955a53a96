package io.objectcommit.store.impl.v2;

import io.objectcommit.store.impl.client.EncryptionSettings;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * The request headers of {@link EncryptionSettings} on SDK v2: with SSE-S3 and SSE-KMS on the requests that
 * create an object, with SSE-C (algorithm, key and key MD5) also on every request that reads or extends one.
 */
final class V2Encryption {

  private static final String AES256 = "AES256";

  private final EncryptionSettings settings;

  V2Encryption(EncryptionSettings settings) {
    this.settings = settings;
  }

  void applyTo(PutObjectRequest.Builder b) {
    switch (settings.algorithm()) {
      case SSE_S3:
        b.serverSideEncryption(ServerSideEncryption.AES256);
        break;
      case SSE_KMS:
        b.serverSideEncryption(ServerSideEncryption.AWS_KMS).ssekmsKeyId(settings.kmsKeyId());
        break;
      case SSE_C:
        b.sseCustomerAlgorithm(AES256).sseCustomerKey(settings.customerKeyBase64())
            .sseCustomerKeyMD5(settings.customerKeyMd5Base64());
        break;
      default:
        break;
    }
  }

  void applyTo(CreateMultipartUploadRequest.Builder b) {
    switch (settings.algorithm()) {
      case SSE_S3:
        b.serverSideEncryption(ServerSideEncryption.AES256);
        break;
      case SSE_KMS:
        b.serverSideEncryption(ServerSideEncryption.AWS_KMS).ssekmsKeyId(settings.kmsKeyId());
        break;
      case SSE_C:
        b.sseCustomerAlgorithm(AES256).sseCustomerKey(settings.customerKeyBase64())
            .sseCustomerKeyMD5(settings.customerKeyMd5Base64());
        break;
      default:
        break;
    }
  }

  /** The encryption of a copy; with SSE-C the source's key too (the same key). */
  void applyTo(CopyObjectRequest.Builder b) {
    switch (settings.algorithm()) {
      case SSE_S3:
        b.serverSideEncryption(ServerSideEncryption.AES256);
        break;
      case SSE_KMS:
        b.serverSideEncryption(ServerSideEncryption.AWS_KMS).ssekmsKeyId(settings.kmsKeyId());
        break;
      case SSE_C:
        b.sseCustomerAlgorithm(AES256).sseCustomerKey(settings.customerKeyBase64())
            .sseCustomerKeyMD5(settings.customerKeyMd5Base64())
            .copySourceSSECustomerAlgorithm(AES256).copySourceSSECustomerKey(settings.customerKeyBase64())
            .copySourceSSECustomerKeyMD5(settings.customerKeyMd5Base64());
        break;
      default:
        break;
    }
  }

  void applyTo(UploadPartRequest.Builder b) {
    if (isCustomerKey()) {
      b.sseCustomerAlgorithm(AES256).sseCustomerKey(settings.customerKeyBase64())
          .sseCustomerKeyMD5(settings.customerKeyMd5Base64());
    }
  }

  void applyTo(GetObjectRequest.Builder b) {
    if (isCustomerKey()) {
      b.sseCustomerAlgorithm(AES256).sseCustomerKey(settings.customerKeyBase64())
          .sseCustomerKeyMD5(settings.customerKeyMd5Base64());
    }
  }

  void applyTo(HeadObjectRequest.Builder b) {
    if (isCustomerKey()) {
      b.sseCustomerAlgorithm(AES256).sseCustomerKey(settings.customerKeyBase64())
          .sseCustomerKeyMD5(settings.customerKeyMd5Base64());
    }
  }

  private boolean isCustomerKey() {
    return settings.algorithm() == EncryptionSettings.Method.SSE_C;
  }
}
