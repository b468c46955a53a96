package io.objectcommit.store.impl.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.security.MessageDigest;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Parsing of the encryption keys (the headers of each SDK: V1EncryptionTest, V2EncryptionTest). */
class EncryptionSettingsTest {

  private static final String ALG = "fs.s3a.encryption.algorithm";
  private static final String KEY = "fs.s3a.encryption.key";
  private static final String SSE_C_KEY = Base64.getEncoder().encodeToString(new byte[32]);

  @Test
  void parsesEachMethod() throws Exception {
    assertSame(EncryptionSettings.none(), EncryptionSettings.parse("", ALG, null, KEY));
    assertEquals("AES256", EncryptionSettings.parse("aes256", ALG, null, KEY).toString());
    EncryptionSettings kms = EncryptionSettings.parse("SSE-KMS", ALG, "arn:aws:kms:k", KEY);
    assertEquals("arn:aws:kms:k", kms.kmsKeyId());
    assertNull(kms.customerKeyBase64());
    assertNull(EncryptionSettings.parse("sse-kms", ALG, " ", KEY).kmsKeyId());
    EncryptionSettings c = EncryptionSettings.parse("SSE-C", ALG, SSE_C_KEY, KEY);
    assertEquals("SSE-C (key set)", c.toString());
    assertEquals(SSE_C_KEY, c.customerKeyBase64());
    assertNull(c.kmsKeyId());
    assertEquals(Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(new byte[32])),
        c.customerKeyMd5Base64());
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
