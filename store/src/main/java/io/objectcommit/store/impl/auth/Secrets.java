package io.objectcommit.store.impl.auth;

import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.config.ConfigReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.alias.CredentialProviderFactory;

/**
 * Reads the secrets of one bucket as S3A does: the per-bucket key first, then the base key, each through Hadoop
 * credential providers ({@code hadoop.security.credential.provider.path}, preceded by
 * {@code fs.s3a.security.credential.provider.path} when set) before the plain configuration value.
 * Remembers which key each value came from, to name it in errors. Also the keyed hash that stands for secrets in
 * cache keys.
 */
public final class Secrets {

  /**
   * The key of the hash that stands for secrets in cache keys: random, drawn once when the class loads and never
   * changed, so that hashes of equal secrets are equal for the life of the JVM (client caches of every context
   * compare them) and worthless outside it. Written once, not state shared between stores.
   */
  private static final byte[] HASH_KEY = new byte[32];

  static {
    new SecureRandom().nextBytes(HASH_KEY);
  }

  private final ConfigReader reader;
  private final Map<String, String> sources = new HashMap<>();

  public Secrets(ConfigReader base) {
    String s3aPath = base.get(StoreConstants.S3A_CREDENTIAL_PROVIDER_PATH,
        StoreConstants.S3A_CREDENTIAL_PROVIDER_PATH_DEFAULT);
    if (s3aPath.isEmpty()) {
      this.reader = base;
    } else {
      Configuration patched = new Configuration(base.configuration());
      String hadoopPath = patched.getTrimmed(CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH, "");
      patched.set(CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH,
          hadoopPath.isEmpty() ? s3aPath : s3aPath + "," + hadoopPath);
      this.reader = new ConfigReader(patched, base.bucket());
    }
  }

  /** The secret of {@code key} (per-bucket form first), or null when unset or blank. */
  public String get(String key) throws IOException {
    String source = reader.effectiveSecretKey(key);
    if (source == null) {
      return null;
    }
    sources.put(key, source);
    return reader.getSecret(key);
  }

  /** The key a value of {@code key} was read from (its per-bucket form or itself). */
  public String keyName(String key) {
    String k = sources.get(key);
    return k != null ? k : reader.effectiveKey(key);
  }

  /**
   * A keyed hash (HMAC-SHA256, key random per JVM) of the parts, "-" when all are null: equal parts give equal
   * hashes within this process; nothing can be learnt from it elsewhere.
   */
  public static String hash(String... parts) {
    boolean any = false;
    StringBuilder all = new StringBuilder();
    for (String p : parts) {
      any |= p != null;
      all.append(p == null ? "\u0001" : p.length() + ":" + p).append('\u0000');
    }
    if (!any) {
      return "-";
    }
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(HASH_KEY, "HmacSHA256"));
      byte[] h = mac.doFinal(all.toString().getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder();
      for (byte b : h) {
        hex.append(String.format("%02x", b));
      }
      return hex.toString();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }

  /** An access key id for display: its first 4 characters and "…", or "…" when short. */
  static String mask(String accessKey) {
    if (accessKey == null) {
      return "-";
    }
    return accessKey.length() >= 8 ? accessKey.substring(0, 4) + "\u2026" : "\u2026";
  }
}
