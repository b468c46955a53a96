package io.objectcommit.fs.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.amazonaws.services.s3.model.GetObjectMetadataRequest;
import com.amazonaws.services.s3.model.GetObjectRequest;
import com.amazonaws.services.s3.model.InitiateMultipartUploadRequest;
import com.amazonaws.services.s3.model.ObjectMetadata;
import com.amazonaws.services.s3.model.PutObjectRequest;
import com.amazonaws.services.s3.model.UploadPartRequest;
import java.io.ByteArrayInputStream;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class EncryptionSettingsTest {

  private static final String ALG = "fs.s3a.encryption.algorithm";
  private static final String KEY = "fs.s3a.encryption.key";
  private static final String SSE_C_KEY = Base64.getEncoder().encodeToString(new byte[32]);

  private static PutObjectRequest put() {
    return new PutObjectRequest("b", "k", new ByteArrayInputStream(new byte[0]), new ObjectMetadata());
  }

  @Test
  void noneAddsNothing() {
    EncryptionSettings none = EncryptionSettings.parse("", ALG, null, KEY);
    assertSame(EncryptionSettings.none(), none);
    assertEquals("none", none.toString());
    PutObjectRequest p = none.applyTo(put());
    assertNull(p.getMetadata().getSSEAlgorithm());
    assertNull(p.getSSEAwsKeyManagementParams());
    assertNull(p.getSSECustomerKey());
    assertNull(none.applyTo(new InitiateMultipartUploadRequest("b", "k")).getSSEAwsKeyManagementParams());
    assertNull(none.applyTo(new GetObjectRequest("b", "k")).getSSECustomerKey());
  }

  @Test
  void sseS3SetsTheAlgorithmOnNewObjects() {
    EncryptionSettings e = EncryptionSettings.parse("aes256", ALG, null, KEY);
    assertEquals(EncryptionSettings.Method.SSE_S3, e.algorithm());
    assertEquals("AES256", e.toString());
    PutObjectRequest noMetadata = new PutObjectRequest("b", "k", new ByteArrayInputStream(new byte[0]), null);
    assertEquals("AES256", e.applyTo(noMetadata).getMetadata().getSSEAlgorithm());
    assertEquals("AES256", e.applyTo(new InitiateMultipartUploadRequest("b", "k")).getObjectMetadata()
        .getSSEAlgorithm());
    assertNull(e.applyTo(new GetObjectRequest("b", "k")).getSSECustomerKey());
  }

  @Test
  void sseKmsSetsTheKeyOrTheDefault() {
    EncryptionSettings withKey = EncryptionSettings.parse("SSE-KMS", ALG, "arn:aws:kms:k", KEY);
    assertEquals("SSE-KMS (key set)", withKey.toString());
    assertEquals("arn:aws:kms:k", withKey.applyTo(put()).getSSEAwsKeyManagementParams().getAwsKmsKeyId());
    assertEquals("aws:kms", withKey.applyTo(new InitiateMultipartUploadRequest("b", "k"))
        .getSSEAwsKeyManagementParams().getEncryption());
    assertNull(withKey.applyTo(new UploadPartRequest()).getSSECustomerKey());

    EncryptionSettings accountDefault = EncryptionSettings.parse("sse-kms", ALG, " ", KEY);
    assertEquals("SSE-KMS", accountDefault.toString());
    assertNull(accountDefault.applyTo(put()).getSSEAwsKeyManagementParams().getAwsKmsKeyId());
    assertEquals("aws:kms", accountDefault.applyTo(put()).getSSEAwsKeyManagementParams().getEncryption());
  }

  @Test
  void sseCSendsTheKeyWithEveryRequest() {
    EncryptionSettings e = EncryptionSettings.parse("SSE-C", ALG, SSE_C_KEY, KEY);
    assertEquals("SSE-C (key set)", e.toString());
    assertEquals(SSE_C_KEY, e.applyTo(put()).getSSECustomerKey().getKey());
    assertEquals("AES256", e.applyTo(put()).getSSECustomerKey().getAlgorithm());
    assertEquals(SSE_C_KEY, e.applyTo(new InitiateMultipartUploadRequest("b", "k")).getSSECustomerKey().getKey());
    assertEquals(SSE_C_KEY, e.applyTo(new UploadPartRequest()).getSSECustomerKey().getKey());
    assertEquals(SSE_C_KEY, e.applyTo(new GetObjectRequest("b", "k")).getSSECustomerKey().getKey());
    assertEquals(SSE_C_KEY, e.applyTo(new GetObjectMetadataRequest("b", "k")).getSSECustomerKey().getKey());
    assertNull(e.applyTo(put()).getSSEAwsKeyManagementParams());
  }

  @Test
  void badCombinationsFailNamingTheKeys() {
    assertEquals("Unknown encryption algorithm 'CSE-KMS' in " + ALG + ": client-side encryption is not supported"
        + " by objectcommit", assertThrows(IllegalArgumentException.class,
            () -> EncryptionSettings.parse("CSE-KMS", ALG, "k", KEY)).getMessage());
    assertEquals("The SSE-C key in fs.s3a.bucket.b.encryption.key is not valid base64: it must be a"
        + " base64-encoded 256-bit key", assertThrows(IllegalArgumentException.class,
            () -> EncryptionSettings.parse("SSE-C", ALG, "not base64!", "fs.s3a.bucket.b.encryption.key"))
        .getMessage());
  }
}
