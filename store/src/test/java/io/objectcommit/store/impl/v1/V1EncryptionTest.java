package io.objectcommit.store.impl.v1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.amazonaws.services.s3.model.GetObjectMetadataRequest;
import com.amazonaws.services.s3.model.GetObjectRequest;
import com.amazonaws.services.s3.model.InitiateMultipartUploadRequest;
import com.amazonaws.services.s3.model.ObjectMetadata;
import com.amazonaws.services.s3.model.PutObjectRequest;
import com.amazonaws.services.s3.model.UploadPartRequest;
import io.objectcommit.store.impl.client.EncryptionSettings;
import java.io.ByteArrayInputStream;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The SDK v1 request headers of each encryption method. */
class V1EncryptionTest {

  private static final String ALG = "fs.s3a.encryption.algorithm";
  private static final String KEY = "fs.s3a.encryption.key";
  private static final String SSE_C_KEY = Base64.getEncoder().encodeToString(new byte[32]);

  private static PutObjectRequest put(EncryptionSettings e) {
    ObjectMetadata md = new ObjectMetadata();
    PutObjectRequest p = new PutObjectRequest("b", "k", new ByteArrayInputStream(new byte[0]), md);
    new V1Encryption(e).applyTo(p, md);
    return p;
  }

  private static InitiateMultipartUploadRequest initiate(EncryptionSettings e) {
    ObjectMetadata md = new ObjectMetadata();
    InitiateMultipartUploadRequest r = new InitiateMultipartUploadRequest("b", "k", md);
    new V1Encryption(e).applyTo(r, md);
    return r;
  }

  private static GetObjectRequest get(EncryptionSettings e) {
    GetObjectRequest r = new GetObjectRequest("b", "k");
    new V1Encryption(e).applyTo(r);
    return r;
  }

  private static UploadPartRequest part(EncryptionSettings e) {
    UploadPartRequest r = new UploadPartRequest();
    new V1Encryption(e).applyTo(r);
    return r;
  }

  private static GetObjectMetadataRequest head(EncryptionSettings e) {
    GetObjectMetadataRequest r = new GetObjectMetadataRequest("b", "k");
    new V1Encryption(e).applyTo(r);
    return r;
  }

  @Test
  void noneAddsNothing() {
    EncryptionSettings none = EncryptionSettings.parse("", ALG, null, KEY);
    assertSame(EncryptionSettings.none(), none);
    assertEquals("none", none.toString());
    PutObjectRequest p = put(none);
    assertNull(p.getMetadata().getSSEAlgorithm());
    assertNull(p.getSSEAwsKeyManagementParams());
    assertNull(p.getSSECustomerKey());
    assertNull(initiate(none).getSSEAwsKeyManagementParams());
    assertNull(get(none).getSSECustomerKey());
  }

  @Test
  void sseS3SetsTheAlgorithmOnNewObjects() {
    EncryptionSettings e = EncryptionSettings.parse("aes256", ALG, null, KEY);
    assertEquals(EncryptionSettings.Method.SSE_S3, e.algorithm());
    assertEquals("AES256", e.toString());
    assertEquals("AES256", put(e).getMetadata().getSSEAlgorithm());
    assertEquals("AES256", initiate(e).getObjectMetadata()
        .getSSEAlgorithm());
    assertNull(get(e).getSSECustomerKey());
  }

  @Test
  void sseKmsSetsTheKeyOrTheDefault() {
    EncryptionSettings withKey = EncryptionSettings.parse("SSE-KMS", ALG, "arn:aws:kms:k", KEY);
    assertEquals("SSE-KMS (key set)", withKey.toString());
    assertEquals("arn:aws:kms:k", put(withKey).getSSEAwsKeyManagementParams().getAwsKmsKeyId());
    assertEquals("aws:kms", initiate(withKey)
        .getSSEAwsKeyManagementParams().getEncryption());
    assertNull(part(withKey).getSSECustomerKey());

    EncryptionSettings accountDefault = EncryptionSettings.parse("sse-kms", ALG, " ", KEY);
    assertEquals("SSE-KMS", accountDefault.toString());
    assertNull(put(accountDefault).getSSEAwsKeyManagementParams().getAwsKmsKeyId());
    assertEquals("aws:kms", put(accountDefault).getSSEAwsKeyManagementParams().getEncryption());
  }

  @Test
  void sseCSendsTheKeyWithEveryRequest() {
    EncryptionSettings e = EncryptionSettings.parse("SSE-C", ALG, SSE_C_KEY, KEY);
    assertEquals("SSE-C (key set)", e.toString());
    assertEquals(SSE_C_KEY, put(e).getSSECustomerKey().getKey());
    assertEquals("AES256", put(e).getSSECustomerKey().getAlgorithm());
    assertEquals(SSE_C_KEY, initiate(e).getSSECustomerKey().getKey());
    assertEquals(SSE_C_KEY, part(e).getSSECustomerKey().getKey());
    assertEquals(SSE_C_KEY, get(e).getSSECustomerKey().getKey());
    assertEquals(SSE_C_KEY, head(e).getSSECustomerKey().getKey());
    assertNull(put(e).getSSEAwsKeyManagementParams());
  }
}
