package io.objectcommit.store.impl.client;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;
import java.util.Objects;

/**
 * Server-side encryption of the objects objectcommit writes, as configured with {@code fs.s3a.encryption.algorithm}
 * and {@code fs.s3a.encryption.key} (or their older names), and the request headers it needs.
 *
 * <p>Immutable. {@link #toString()} never shows the key (neither an SSE-C key, which is a secret, nor a KMS key
 * id). Build it with {@link #parse}, which validates the combination, or {@link #none()}.
 *
 * <p>Which requests need what: with SSE-S3 ({@code AES256}) and SSE-KMS only the requests that create an object
 * (PUT, initiate multipart, COPY); with SSE-C also every request that reads or extends one (GET, HEAD, upload
 * part, the source of a COPY), since S3 needs the customer key to decrypt.
 */
public final class EncryptionSettings {

  /** The server-side encryption methods objectcommit supports. */
  public enum Method {
    /** No encryption header: the bucket's default encryption applies. */
    NONE(""),
    /** SSE-S3: keys managed by S3. */
    SSE_S3("AES256"),
    /** SSE-KMS: a KMS key (the configured id/ARN, else the account's default {@code aws/s3} key). */
    SSE_KMS("SSE-KMS"),
    /** SSE-C: a 256-bit key supplied by the client with every request. */
    SSE_C("SSE-C");

    private final String configName;

    Method(String configName) {
      this.configName = configName;
    }

    /** The value of {@code fs.s3a.encryption.algorithm} that selects this method. */
    public String configName() {
      return configName;
    }
  }

  private static final EncryptionSettings NONE = new EncryptionSettings(Method.NONE, null);

  private final Method method;
  /** KMS key id/ARN (SSE-KMS, may be null) or base64 AES-256 key (SSE-C); null otherwise. */
  private final String key;

  private EncryptionSettings(Method method, String key) {
    this.method = method;
    this.key = key;
  }

  /** No encryption headers. */
  public static EncryptionSettings none() {
    return NONE;
  }

  /**
   * Validates and builds the settings.
   *
   * @param algorithm the configured algorithm, empty or null for none
   * @param algorithmKey the key the algorithm was read from, named in errors
   * @param key the configured key (a secret for SSE-C), null when unset
   * @param keyKey the key the encryption key was read from, named in errors
   * @throws IllegalArgumentException for an unknown algorithm, AES256 with a key, SSE-C without a valid base64
   *     256-bit key; the message names the keys, never the encryption key itself
   */
  public static EncryptionSettings parse(String algorithm, String algorithmKey, String key, String keyKey) {
    String alg = algorithm == null ? "" : algorithm.trim();
    String k = key == null || key.trim().isEmpty() ? null : key.trim();
    Method method = null;
    for (Method m : Method.values()) {
      if (m.configName.equalsIgnoreCase(alg)) {
        method = m;
      }
    }
    if (method == null) {
      String hint = alg.toUpperCase(Locale.ROOT).startsWith("CSE")
          ? ": client-side encryption is not supported by objectcommit"
          : ": expected one of AES256, SSE-KMS, SSE-C or empty for none";
      throw new IllegalArgumentException("Unknown encryption algorithm '" + alg + "' in " + algorithmKey + hint);
    }
    switch (method) {
      case NONE:
        return NONE;
      case SSE_S3:
        if (k != null) {
          throw new IllegalArgumentException(algorithmKey + " is AES256 (keys managed by S3) but " + keyKey
              + " is set too: unset the key, or use SSE-KMS or SSE-C");
        }
        return new EncryptionSettings(method, null);
      case SSE_KMS:
        return new EncryptionSettings(method, k);
      case SSE_C:
        if (k == null) {
          throw new IllegalArgumentException(algorithmKey + " is SSE-C but " + keyKey
              + " is not set: SSE-C needs a base64-encoded 256-bit key");
        }
        byte[] raw;
        try {
          raw = Base64.getDecoder().decode(k);
        } catch (IllegalArgumentException e) {
          // Do not chain e: its message may quote part of the key.
          throw new IllegalArgumentException("The SSE-C key in " + keyKey + " is not valid base64: it must be a"
              + " base64-encoded 256-bit key");
        }
        if (raw.length != 32) {
          throw new IllegalArgumentException("The SSE-C key in " + keyKey + " is " + raw.length * 8
              + " bits long: it must be a base64-encoded 256-bit key");
        }
        return new EncryptionSettings(method, k);
      default:
        throw new AssertionError(method);
    }
  }

  /** The configured method; {@link Method#NONE} when none. */
  public Method algorithm() {
    return method;
  }

  /** Whether a KMS key id or SSE-C key is configured. */
  public boolean hasKey() {
    return key != null;
  }

  /** The key, for {@link S3ClientSettings#cacheKey()} hashing only. */
  String keyForHashing() {
    return key;
  }

  /** The KMS key id or ARN of SSE-KMS, null for the account's default key or another method. */
  public String kmsKeyId() {
    return method == Method.SSE_KMS ? key : null;
  }

  /**
   * The base64 256-bit key of SSE-C (a secret: for the request headers only, never to be logged), null for
   * another method.
   */
  public String customerKeyBase64() {
    return method == Method.SSE_C ? key : null;
  }

  /** The base64 MD5 of the SSE-C key (its {@code x-amz-server-side-encryption-customer-key-MD5} header). */
  public String customerKeyMd5Base64() {
    if (method != Method.SSE_C) {
      return null;
    }
    try {
      byte[] md5 = MessageDigest.getInstance("MD5").digest(Base64.getDecoder().decode(key));
      return Base64.getEncoder().encodeToString(md5);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 is missing from this JVM", e);
    }
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof EncryptionSettings)) {
      return false;
    }
    EncryptionSettings other = (EncryptionSettings) o;
    return method == other.method && Objects.equals(key, other.key);
  }

  @Override
  public int hashCode() {
    return Objects.hash(method, key);
  }

  /** The method and whether a key is set; never the key. */
  @Override
  public String toString() {
    return method == Method.NONE ? "none" : method.configName + (key != null ? " (key set)" : "");
  }
}
