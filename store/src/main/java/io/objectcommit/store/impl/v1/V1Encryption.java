package io.objectcommit.store.impl.v1;

import com.amazonaws.services.s3.model.CopyObjectRequest;
import com.amazonaws.services.s3.model.GetObjectMetadataRequest;
import com.amazonaws.services.s3.model.GetObjectRequest;
import com.amazonaws.services.s3.model.InitiateMultipartUploadRequest;
import com.amazonaws.services.s3.model.ObjectMetadata;
import com.amazonaws.services.s3.model.PutObjectRequest;
import com.amazonaws.services.s3.model.SSEAlgorithm;
import com.amazonaws.services.s3.model.SSEAwsKeyManagementParams;
import com.amazonaws.services.s3.model.SSECustomerKey;
import com.amazonaws.services.s3.model.UploadPartRequest;
import io.objectcommit.store.impl.client.EncryptionSettings;

/**
 * The request headers of {@link EncryptionSettings} on SDK v1: with SSE-S3 and SSE-KMS on the requests that
 * create an object, with SSE-C also on every request that reads or extends one.
 */
final class V1Encryption {

  private final EncryptionSettings settings;

  V1Encryption(EncryptionSettings settings) {
    this.settings = settings;
  }

  /** The encryption of a new object, in its metadata and request. */
  void applyTo(PutObjectRequest request, ObjectMetadata md) {
    switch (settings.algorithm()) {
      case SSE_S3:
        md.setSSEAlgorithm(SSEAlgorithm.AES256.getAlgorithm());
        break;
      case SSE_KMS:
        request.setSSEAwsKeyManagementParams(kmsParams());
        break;
      case SSE_C:
        request.setSSECustomerKey(customerKey());
        break;
      default:
        break;
    }
  }

  /** The encryption of the object a multipart upload will create. */
  void applyTo(InitiateMultipartUploadRequest request, ObjectMetadata md) {
    switch (settings.algorithm()) {
      case SSE_S3:
        md.setSSEAlgorithm(SSEAlgorithm.AES256.getAlgorithm());
        break;
      case SSE_KMS:
        request.setSSEAwsKeyManagementParams(kmsParams());
        break;
      case SSE_C:
        request.setSSECustomerKey(customerKey());
        break;
      default:
        break;
    }
  }

  /** The encryption of a copy, in its new metadata and request; with SSE-C the source's key too (the same key). */
  void applyTo(CopyObjectRequest request, ObjectMetadata md) {
    switch (settings.algorithm()) {
      case SSE_S3:
        md.setSSEAlgorithm(SSEAlgorithm.AES256.getAlgorithm());
        break;
      case SSE_KMS:
        request.setSSEAwsKeyManagementParams(kmsParams());
        break;
      case SSE_C:
        request.setSourceSSECustomerKey(customerKey());
        request.setDestinationSSECustomerKey(customerKey());
        break;
      default:
        break;
    }
  }

  void applyTo(UploadPartRequest request) {
    if (isCustomerKey()) {
      request.setSSECustomerKey(customerKey());
    }
  }

  void applyTo(GetObjectRequest request) {
    if (isCustomerKey()) {
      request.setSSECustomerKey(customerKey());
    }
  }

  void applyTo(GetObjectMetadataRequest request) {
    if (isCustomerKey()) {
      request.setSSECustomerKey(customerKey());
    }
  }

  private boolean isCustomerKey() {
    return settings.algorithm() == EncryptionSettings.Method.SSE_C;
  }

  private SSEAwsKeyManagementParams kmsParams() {
    String id = settings.kmsKeyId();
    return id == null ? new SSEAwsKeyManagementParams() : new SSEAwsKeyManagementParams(id);
  }

  private SSECustomerKey customerKey() {
    return new SSECustomerKey(settings.customerKeyBase64());
  }
}
